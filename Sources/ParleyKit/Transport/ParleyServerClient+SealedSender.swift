import Foundation
import NIOHTTP1
import ParleyAPI

/// The routes sealed sender uses: the account's access key, and sends that carry an access key instead of credentials.
extension ParleyServerClient {
    /// The server's sealed-sender trust root (the key its sender certificates lead to); no credentials.
    public func sealedSenderTrustRoot() async throws -> SealedSenderTrustRootResponse {
        try await call(.GET, APIRoutes.sealedSenderTrustRoot, as: nil, expecting: [200])
    }

    /// Sets the account's unidentified access key (from its profile key, ``ProfileKey/accessKey``) and whether anyone
    /// may send to it sealed without one.
    public func setAccountAttributes(_ request: AccountAttributesRequest, as device: DeviceCredentials) async throws {
        _ = try await send(.PUT, APIRoutes.accountAttributes, body: try JSONEncoder().encode(request), as: device, expecting: [200, 204])
    }

    /// Prekey bundles of `accountId`'s device `deviceId` (all devices when `nil`) without credentials: `accessKey` is the
    /// account's unidentified access key, so the fetch before a sealed send does not say who is about to send. A wrong
    /// key (or an unknown account) is ``ParleyError/Server/rejected(status:body:)`` with status 401.
    public func bundle(accountId: String, deviceId: UInt32?, accessKey: Data) async throws -> PreKeyBundleResponse {
        let (_, body) = try await send(
            .GET, APIRoutes.bundle(accountId: accountId, deviceId: deviceId.map(String.init) ?? "*"), body: nil, as: nil, expecting: [200],
            extraHeaders: Self.accessKeyHeader(accessKey), unidentified: true)
        return try decode(PreKeyBundleResponse.self, body)
    }

    /// Relays `event` (its copies sealed sender) to `accountId`'s connected devices without credentials: `accessKey` is
    /// the account's unidentified access key, so the server never learns who sent it. A wrong key is
    /// ``ParleyError/Server/rejected(status:body:)`` with status 401.
    public func relaySealedEphemeral(_ event: EphemeralEvent, to accountId: String, accessKey: Data) async throws {
        _ = try await send(
            .PUT, APIRoutes.sealedEphemeral(to: accountId), body: try JSONEncoder().encode(event), as: nil, expecting: [204],
            extraHeaders: Self.accessKeyHeader(accessKey), unidentified: true)
    }

    /// Sends sealed-sender messages (type 6) to every device of `accountId` without credentials: `accessKey` is the
    /// recipient's unidentified access key. A wrong key is ``ParleyError/Server/rejected(status:body:)`` with status 401.
    /// `idempotencyKey` makes a repeat get the first answer; without credentials it must be unguessable (at least 22
    /// characters: it is shared with every other sender to the recipient).
    public func send(
        _ request: SendMessagesRequest, to accountId: String, accessKey: Data,
        idempotencyKey: String? = nil
    ) async throws -> SendOutcome {
        let (status, body) = try await send(
            .PUT, APIRoutes.messages(to: accountId), body: try JSONEncoder().encode(request), as: nil, expecting: [200, 409, 410],
            extraHeaders: Self.accessKeyHeader(accessKey)
                + Self.idempotencyHeader(idempotencyKey), unidentified: true)
        return try SendOutcome(status: status, body: body)
    }

    /// Sends a sealed sender v2 message (``ParleyProtocol/sealedSenderMultiRecipientEncrypt``) to every device it
    /// names, without credentials: `combinedAccessKey` is the XOR of the recipients' access keys. A wrong key is
    /// ``ParleyError/Server/rejected(status:body:)`` with status 401. `idempotencyKey` (unguessable, at least 22
    /// characters) makes a repeat get the first answer.
    public func sendMultiRecipient(
        _ message: Data, timestamp: UInt64, combinedAccessKey: Data,
        idempotencyKey: String? = nil
    ) async throws -> MultiRecipientSendOutcome {
        let (status, body) = try await send(
            .PUT, APIRoutes.multiRecipientMessages(timestamp: timestamp), body: message, as: nil, expecting: [200, 404, 409, 410],
            contentType: APIRoutes.multiRecipientContentType,
            extraHeaders: Self.accessKeyHeader(combinedAccessKey)
                + Self.idempotencyHeader(idempotencyKey), unidentified: true)
        return try MultiRecipientSendOutcome(status: status, body: body)
    }
}
