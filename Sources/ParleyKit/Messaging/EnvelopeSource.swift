import Foundation
import ParleyAPI
import ParleyProtocol

/// Who sent an envelope and the ciphertext it carries for this device, with any sealed-sender layer opened.
///
/// An envelope the server stored with its source names it in the clear. A sealed-sender envelope (type 6) names no
/// one: its sender is believed only from a sender certificate that leads to the sealed-sender trust root this account
/// keeps, is unexpired, and whose key is the one that sealed the message.
struct EnvelopeSource: Sendable {
    /// The sending account.
    let accountId: String
    /// The sending device.
    let deviceId: UInt32
    /// `CiphertextMessage.MessageType` of ``ciphertext``.
    let type: UInt8
    /// The Signal message to decrypt.
    let ciphertext: Data
    /// Whether it arrived sealed (the server did not know the sender).
    let sealed: Bool

    /// Opens `envelope` at `now` (milliseconds since 1970).
    /// - Throws: ``ParleyError/invalidArgument(_:)`` for an envelope without a source that is not sealed sender, or
    ///   when no trust root is known; `SignalError` when the seal does not open or the certificate fails a check.
    static func open(_ envelope: Envelope, ciphertext: Data, store: DatabaseProtocolStore, _ db: StorageTransaction, now: UInt64) throws
        -> EnvelopeSource
    {
        if let accountId = envelope.sourceAccountId, let deviceId = envelope.sourceDeviceId,
            envelope.type != OutgoingMessage.unidentifiedSenderType
        {
            return EnvelopeSource(accountId: accountId, deviceId: deviceId, type: envelope.type, ciphertext: ciphertext, sealed: false)
        }
        guard envelope.type == OutgoingMessage.unidentifiedSenderType else {
            throw ParleyError.invalidArgument("an envelope of type \(envelope.type) without a sender")
        }
        guard let trustRoot = try AccountManager.storedTrustRoot(db) else {
            throw ParleyError.invalidArgument("a sealed-sender message arrived but no trust root is known")
        }
        let content = try UnidentifiedSenderMessageContent(message: ciphertext, identityStore: store, context: TransactionContext(db))
        let certificate = content.senderCertificate
        try certificate.check(trustRoot: trustRoot, time: now)
        return EnvelopeSource(
            accountId: certificate.senderUuid.lowercased(), deviceId: certificate.deviceId, type: content.messageType.rawValue,
            ciphertext: content.contents, sealed: true)
    }
}
