import Foundation

/// What travels inside a sealed-sender envelope: the sender's certificate and an ordinary
/// encrypted message (pre-key, whisper, sender-key or plaintext).
public struct UnidentifiedSenderMessageContent: Sendable {
    /// How a recipient should treat a message it cannot decrypt.
    public enum ContentHint: UInt32, Sendable {
        /// Show an error.
        case `default` = 0
        /// The sender will resend it on request.
        case resendable = 1
        /// Nothing to show if it fails.
        case implicit = 2
    }

    /// The kind of the inner message.
    public let messageType: CiphertextMessage.MessageType
    /// The inner message's wire bytes.
    public let contents: [UInt8]
    /// The sender's certificate.
    public let senderCertificate: SenderCertificate
    /// The content hint.
    public let contentHint: ContentHint
    /// The group the message belongs to, if any.
    public let groupId: [UInt8]?

    /// Wraps `message` with the sender's certificate.
    public init(_ message: CiphertextMessage, from sender: SenderCertificate, contentHint: ContentHint = .default, groupId: [UInt8]? = nil) {
        self.messageType = message.messageType
        self.contents = message.bytes
        self.senderCertificate = sender
        self.contentHint = contentHint
        self.groupId = groupId
    }

    /// Parses the serialized form.
    /// - Throws: ``SignalError/invalidSealedSenderMessage(_:)``, ``SignalError/invalidCertificate(_:)``.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws {
        let message: Parley_Sealed_UnidentifiedSenderMessage.Message
        do { message = try ProtobufCoding.decode(bytes.byteArray, what: "sealed sender content") } catch {
            throw SignalError.invalidSealedSenderMessage("content does not parse")
        }
        guard message.hasType, message.hasSenderCertificate, message.hasContent else {
            throw SignalError.invalidSealedSenderMessage("content lacks its type, certificate or message")
        }
        let type: CiphertextMessage.MessageType
        switch message.type {
        case .prekeyMessage: type = .preKey
        case .message: type = .whisper
        case .senderkeyMessage: type = .senderKey
        case .plaintextContent: type = .plaintext
        }
        self.messageType = type
        self.contents = Array(message.content)
        self.senderCertificate = try SenderCertificate(structure: message.senderCertificate)
        self.contentHint = ContentHint(rawValue: UInt32(message.contentHint.rawValue)) ?? .default
        self.groupId = message.hasGroupID ? Array(message.groupID) : nil
    }

    /// The serialized form (encrypted by ``sealedSenderEncrypt(_:for:identityStore:context:)``).
    public func serialize() -> Data {
        var message = Parley_Sealed_UnidentifiedSenderMessage.Message()
        switch messageType {
        case .preKey: message.type = .prekeyMessage
        case .whisper: message.type = .message
        case .senderKey: message.type = .senderkeyMessage
        case .plaintext: message.type = .plaintextContent
        }
        message.senderCertificate = senderCertificate.structure
        message.content = Data(contents)
        if contentHint != .default {
            message.contentHint = Parley_Sealed_UnidentifiedSenderMessage.Message.ContentHint(rawValue: Int(contentHint.rawValue)) ?? .default
        }
        if let groupId { message.groupID = Data(groupId) }
        return ProtobufCoding.encode(message)
    }
}
