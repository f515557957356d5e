import Foundation

/// A retry receipt: tells the sender of a message that could not be decrypted which message it was, so that it
/// archives the broken session and sends the message again on a new one.
///
/// Wire (libsignal `service.proto`): protobuf `{1 ratchet_key, 2 timestamp, 3 device_id}`.
public struct DecryptionErrorMessage: Sendable {
    /// The failed 1:1 message's sender ratchet key; `nil` when the failed message was a sender-key message.
    public let ratchetKey: PublicKey?
    /// The failed message's timestamp, in milliseconds since 1970.
    public let timestamp: UInt64
    /// The device that sent the failed message.
    public let deviceId: UInt32
    private let serialized: [UInt8]

    /// Parses a serialized retry receipt.
    /// - Throws: ``SignalError/protobufError(_:)`` when it does not parse or lacks its timestamp,
    ///   ``SignalError/invalidKey(_:)`` for a malformed ratchet key.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws {
        let raw = bytes.byteArray
        let message: Parley_Wire_DecryptionErrorMessage = try ProtobufCoding.decode(raw, what: "DecryptionErrorMessage")
        guard message.hasTimestamp else { throw SignalError.protobufError("DecryptionErrorMessage lacks its timestamp") }
        ratchetKey = message.hasRatchetKey ? try PublicKey(message.ratchetKey) : nil
        timestamp = message.timestamp
        deviceId = message.deviceID
        serialized = raw
    }

    /// The retry receipt for a message that failed to decrypt: `bytes` of `type`, sent at `timestamp` by the device
    /// `originalSenderDeviceId`. A whisper or pre-key message's sender ratchet key is taken from it.
    /// - Throws: the parsing errors of ``SignalMessage`` or ``PreKeySignalMessage``;
    ///   ``SignalError/invalidArgument(_:)`` for plaintext content, which cannot fail to decrypt.
    public init<Bytes: ContiguousBytes>(
        originalMessageBytes bytes: Bytes, type: CiphertextMessage.MessageType, timestamp: UInt64,
        originalSenderDeviceId: UInt32
    ) throws {
        let ratchetKey: PublicKey?
        switch type {
        case .whisper: ratchetKey = try SignalMessage(bytes: bytes).senderRatchetKey
        case .preKey: ratchetKey = try PreKeySignalMessage(bytes: bytes).signalMessage.senderRatchetKey
        case .senderKey: ratchetKey = nil
        case .plaintext:
            throw SignalError.invalidArgument("plaintext content is not encrypted, so it has no retry receipt")
        }
        var message = Parley_Wire_DecryptionErrorMessage()
        if let ratchetKey { message.ratchetKey = ratchetKey.serialize() }
        message.timestamp = timestamp
        message.deviceID = originalSenderDeviceId
        self.ratchetKey = ratchetKey
        self.timestamp = timestamp
        self.deviceId = originalSenderDeviceId
        self.serialized = ProtobufCoding.encode(message)
    }

    /// The retry receipt inside a decrypted `Content` (`Content` protobuf ‖ `0x80`), such as a ``PlaintextContent``'s
    /// ``PlaintextContent/body``.
    /// - Throws: ``SignalError/protobufError(_:)`` when the bytes do not end with the padding boundary or do not
    ///   parse; ``SignalError/invalidArgument(_:)`` when the content carries no retry receipt.
    public static func extractFromSerializedContent<Bytes: ContiguousBytes>(_ bytes: Bytes) throws -> DecryptionErrorMessage {
        let raw = bytes.byteArray
        guard raw.last == PlaintextContent.paddingBoundaryByte else {
            throw SignalError.protobufError("content does not end with the padding boundary 0x80")
        }
        let content: Parley_Wire_Content = try ProtobufCoding.decode(Array(raw.dropLast()), what: "Content")
        guard content.hasDecryptionErrorMessage else {
            throw SignalError.invalidArgument("content does not contain a DecryptionErrorMessage")
        }
        return try DecryptionErrorMessage(bytes: content.decryptionErrorMessage)
    }

    /// The wire bytes.
    public func serialize() -> Data { Data(serialized) }
}
