import Foundation
import ParleyAPI
import ParleyProtocol

/// Profile key credentials: what lets a server-stored group hold a member's profile key while the server learns neither
/// the key nor who the member is. The account publishes a commitment to its key; anyone who knows a person's key (it
/// comes with their messages) asks the server for a credential over it, proving knowledge of the committed key.
extension AccountManager {
    /// Publishes the commitment to this account's current profile key, unless it already did for this key.
    /// - Throws: ``ParleyError/notRegistered`` without an account; ``ParleyError/invalidArgument(_:)`` without a
    ///   profile key.
    public func publishProfileKeyCommitmentIfNeeded() async throws {
        let (credentials, key, published) = try database.read { db in
            (
                try LocalAccount.credentials(db), try LocalAccountTable.profileKey(db),
                try SettingsTable.value(SettingsTable.profileKeyCommitmentVersion, db)
            )
        }
        guard let key else { throw ParleyError.invalidArgument("this account has no profile key yet") }
        let aci = try Self.aci(credentials.accountId)
        let zkKey = try ParleyProtocol.ProfileKey(contents: key)
        let version = String(decoding: try zkKey.getProfileKeyVersion(userId: aci).serialize(), as: UTF8.self)
        guard version != published else { return }
        try await api.publishProfileKeyCommitment(
            ProfileKeyCommitmentRequest(
                version: version, commitment: try zkKey.getCommitment(userId: aci).serialize().base64EncodedString()),
            as: credentials)
        try await database.awaitableWrite { db in try SettingsTable.set(SettingsTable.profileKeyCommitmentVersion, to: version, db) }
    }

    /// An expiring profile key credential for `accountId`'s profile key `profileKey` (this account's own, or one a
    /// contact's messages carried), received and checked against the server's params.
    /// - Throws: ``ParleyError/Server`` with 404 when that account published no commitment for that key (then invite it
    ///   instead); ``ParleyError/invalidArgument(_:)`` when the server's credential does not check out.
    public func profileKeyCredential(for accountId: String, profileKey: Data) async throws -> ExpiringProfileKeyCredential {
        let credentials = try database.read(LocalAccount.credentials)
        let params = try await zkGroupPublicParams()
        let aci = try Self.aci(accountId)
        let key = try ParleyProtocol.ProfileKey(contents: profileKey)
        let version = String(decoding: try key.getProfileKeyVersion(userId: aci).serialize(), as: UTF8.self)
        let operations = ClientZkProfileOperations(serverPublicParams: params)
        let context = try operations.createProfileKeyCredentialRequestContext(userId: aci, profileKey: key)
        let response = try await api.profileKeyCredential(
            aci: aci.serviceIdString, version: version, request: try context.getRequest().serialize(), as: credentials)
        do {
            guard let bytes = Data(base64Encoded: response.credential) else { throw SignalError.invalidType("not base64") }
            return try operations.receiveExpiringProfileKeyCredential(
                profileKeyCredentialRequestContext: context,
                profileKeyCredentialResponse: ExpiringProfileKeyCredentialResponse(contents: bytes),
                now: Date(timeIntervalSince1970: TimeInterval(now()) / 1000))
        } catch {
            throw ParleyError.invalidArgument("the server's profile key credential for \(accountId) does not check out: \(error)")
        }
    }

    /// The ACI of account id `accountId`.
    static func aci(_ accountId: String) throws -> Aci {
        guard let uuid = UUID(uuidString: accountId) else { throw ParleyError.invalidArgument("\(accountId) is not an account id") }
        return Aci(fromUUID: uuid)
    }
}
