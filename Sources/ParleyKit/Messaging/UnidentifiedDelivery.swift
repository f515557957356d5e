import Foundation
import ParleyAPI
import ParleyProtocol

/// Sealed sender on the send side: whether a message to an account may go sealed, the sender certificate it carries,
/// and the sealing itself.
///
/// A message goes sealed when the setting allows it (``ClientSettings/unidentifiedDelivery``), the recipient is another
/// account whose profile key this client knows (so it can show the server the recipient's access key instead of
/// credentials), the server has not refused that key, and a sender certificate leading to the trust root is at hand.
/// Otherwise it goes with this device's credentials, as before.
struct UnidentifiedDelivery: Sendable {
    let database: ParleyDatabase
    let accounts: AccountManager
    let store: DatabaseProtocolStore
    /// Wall-clock milliseconds, for certificate expiry.
    let now: @Sendable () -> UInt64

    /// A certificate is fetched anew when it has less than this left (milliseconds).
    static let certificateRenewalMargin: UInt64 = 60 * 60 * 1000
    /// The `settings` key the current sender certificate is kept under (base64).
    static let certificateSetting = SettingsTable.senderCertificate

    /// What a sealed send to one account needs.
    struct Access: Sendable {
        /// The recipient's unidentified access key.
        let key: Data
        /// This device's sender certificate.
        let certificate: SenderCertificate
    }

    /// How to send to `accountId` sealed, or `nil` when the message goes with credentials.
    func access(to accountId: String, as credentials: DeviceCredentials) async throws -> Access? {
        guard accountId != credentials.accountId, let key = try database.read({ db in try Self.accessKeys(for: [accountId], db)[0] }) else {
            return nil
        }
        return try await certificate().map { Access(key: key, certificate: $0) }
    }

    /// The access key of each of `accountIds` when a message to it may go sealed: the setting is on, its profile key is
    /// known and the server has not refused the key derived from it; `nil` for the others.
    static func accessKeys(for accountIds: [String], _ db: StorageTransaction) throws -> [Data?] {
        guard try ClientSettings(db).unidentifiedDelivery else { return accountIds.map { _ in nil } }
        return try accountIds.map { accountId in
            guard let bytes = try RecipientsTable.usableProfileKey(of: accountId, db) else { return nil }
            return try ProfileKey(bytes: bytes).accessKey
        }
    }

    /// This device's sender certificate, kept until an hour before it expires; `nil` when the server named no trust root
    /// (a server without sender certificates: every message goes with credentials).
    func certificate() async throws -> SenderCertificate? {
        let now = now()
        let (trustRoot, kept) = try database.read { db in
            (
                try AccountManager.storedTrustRoot(db),
                try SettingsTable.value(Self.certificateSetting, db)
            )
        }
        guard trustRoot != nil else { return nil }
        if let kept, let bytes = Data(base64Encoded: kept), let certificate = try? SenderCertificate(bytes),
            certificate.expiration > now + Self.certificateRenewalMargin
        {
            return certificate
        }
        let certificate = try await accounts.senderCertificate(now: now)
        try await database.awaitableWrite { db in
            try SettingsTable.set(Self.certificateSetting, to: certificate.serialize().base64EncodedString(), db)
        }
        return certificate
    }

    /// Remembers that the server refused the access key of `accountId` (401): later messages go with credentials until
    /// the account shares a new profile key.
    func refuse(_ accountId: String) async throws {
        try await database.awaitableWrite { db in try RecipientsTable.refuseAccessKey(of: accountId, db) }
    }

    /// Each of `messages` (Signal ciphertexts for devices of `accountId`) wrapped in sealed sender with `certificate`:
    /// type 6, the sender visible only to the recipient device. `groupId` names the group of a group message.
    func seal(
        _ messages: [OutgoingMessage], to accountId: String, certificate: SenderCertificate,
        contentHint: UnidentifiedSenderMessageContent.ContentHint, groupId: Data?
    ) throws -> [OutgoingMessage] {
        try database.read { [store] db in
            try messages.map { message in
                guard let bytes = Data(base64Encoded: message.content), let type = CiphertextMessage.MessageType(rawValue: message.type)
                else {
                    throw ParleyError.invalidArgument("an outgoing message that is not a Signal ciphertext")
                }
                let content = try UnidentifiedSenderMessageContent(
                    bytes, type: type, from: certificate, contentHint: contentHint,
                    groupId: groupId ?? Data())
                let sealed = try sealedSenderEncrypt(
                    content, for: try ProtocolAddress(name: accountId, deviceId: message.destinationDeviceId),
                    identityStore: store, context: TransactionContext(db))
                return OutgoingMessage(
                    destinationDeviceId: message.destinationDeviceId, destinationRegistrationId: message.destinationRegistrationId,
                    type: OutgoingMessage.unidentifiedSenderType, content: sealed.base64EncodedString())
            }
        }
    }
}
