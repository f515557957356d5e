import Foundation
import NIOHTTP1
import ParleyAPI
import ParleyProtocol

/// The username routes (``ParleyAPI/UsernameRoutes``): the server sees hashes, proofs and encrypted links, never a
/// username. ``ParleyClient`` runs the flows (``ParleyClient/setUsername(nickname:discriminator:)``).
extension ParleyServerClient {
    /// Reserves the first free hash of `hashes` for the account; `nil` when every one is taken (409).
    public func reserveUsernameHash(_ hashes: [Data], as device: DeviceCredentials) async throws -> Data? {
        do {
            let response: ReserveUsernameHashResponse = try await call(
                .PUT, UsernameRoutes.reserve, body: ReserveUsernameHashRequest(usernameHashes: hashes.map(Base64URL.encode)),
                as: device, expecting: [200])
            return Base64URL.decode(response.usernameHash).map { Data($0) }
        } catch ParleyError.server(let error) where error.status == 409 {
            return nil
        }
    }

    /// Confirms the reserved `hash` with `proof`, storing `encryptedUsername` as the account's link when given.
    public func confirmUsernameHash(
        _ hash: Data, proof: Data, encryptedUsername: Data?, as device: DeviceCredentials
    ) async throws -> UsernameHashResponse {
        try await call(
            .PUT, UsernameRoutes.confirm,
            body: ConfirmUsernameHashRequest(
                usernameHash: Base64URL.encode(hash), zkProof: Base64URL.encode(proof),
                encryptedUsername: encryptedUsername.map(Base64URL.encode)),
            as: device, expecting: [200])
    }

    /// The account's username hash and link handle; `nil` when it has no username.
    public func usernameHash(as device: DeviceCredentials) async throws -> UsernameHashResponse? {
        do {
            return try await call(.GET, UsernameRoutes.hash, as: device, expecting: [200])
        } catch ParleyError.server(let error) where error.status == 404 {
            return nil
        }
    }

    /// Removes the account's username and link.
    public func deleteUsername(as device: DeviceCredentials) async throws {
        _ = try await send(.DELETE, UsernameRoutes.hash, body: nil, as: device, expecting: [204])
    }

    /// The account whose username has `hash` (no credentials: the server cannot tell who searched); `nil` when none.
    public func account(usernameHash hash: Data) async throws -> String? {
        do {
            let response: AccountIdentifierResponse = try await call(
                .GET, UsernameRoutes.lookup(usernameHash: Base64URL.encode(hash)), as: nil, expecting: [200])
            return response.uuid
        } catch ParleyError.server(let error) where error.status == 404 {
            return nil
        }
    }

    /// Stores `encryptedUsername` as the account's username link (under its current handle with `keepHandle`); the
    /// handle.
    public func setUsernameLink(_ encryptedUsername: Data, keepHandle: Bool, as device: DeviceCredentials) async throws -> String {
        let response: UsernameLinkHandle = try await call(
            .PUT, UsernameRoutes.link,
            body: EncryptedUsername(usernameLinkEncryptedValue: Base64URL.encode(encryptedUsername), keepLinkHandle: keepHandle),
            as: device, expecting: [200])
        return response.usernameLinkHandle
    }

    /// Removes the account's username link.
    public func deleteUsernameLink(as device: DeviceCredentials) async throws {
        _ = try await send(.DELETE, UsernameRoutes.link, body: nil, as: device, expecting: [204])
    }

    /// The encrypted username under link `handle` (no credentials); `nil` when there is none.
    public func usernameLink(handle: String) async throws -> Data? {
        do {
            let response: EncryptedUsername = try await call(.GET, UsernameRoutes.link(handle: handle), as: nil, expecting: [200])
            guard let bytes = Base64URL.decode(response.usernameLinkEncryptedValue, maximumLength: 256) else {
                throw ParleyError.server(.malformedResponse("the username link's value is not base64url"))
            }
            return Data(bytes)
        } catch ParleyError.server(let error) where error.status == 404 {
            return nil
        }
    }

    /// The username a username link holds.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` when the server has no such link; a ``SignalError`` when what it
    ///   holds does not decrypt under the link's entropy.
    public func username(of link: UsernameLinkAddress) async throws -> Username {
        guard let encrypted = try await usernameLink(handle: link.handle.uuidString.lowercased()) else {
            throw ParleyError.invalidArgument("the server has no username link \(link) (it was reset or deleted)")
        }
        return try Username(fromLink: encrypted, withRandomness: link.entropy)
    }

    /// The account `name` names on the server: a username link's or a username's (`nickname.NN`, found by its hash
    /// alone), or else — for a name that is no username — an account name as registered; `nil` when there is none.
    public func findAccount(named name: String, as device: DeviceCredentials) async throws -> AccountLookupResponse? {
        var name = name
        if let link = UsernameLinkAddress(name) {
            name = try await username(of: link).value
        } else if name.hasPrefix(UsernameLinkAddress.prefix) {
            throw ParleyError.invalidArgument("\(name) is not a whole username link")
        }
        // A username (or a link's) is looked up by its hash only: asking the name route after a miss would hand the
        // server the plain username and who looked for it.
        if let username = try? Username(name) {
            guard let accountId = try await account(usernameHash: username.hash) else { return nil }
            return AccountLookupResponse(accountId: accountId, username: username.value)
        }
        do {
            return try await lookup(username: name, as: device)
        } catch ParleyError.server(let error) where error.status == 404 {
            return nil
        }
    }
}
