import Foundation

/// What travels inside a sealed-sender envelope: the sender's certificate and an ordinary
/// encrypted message (pre-key, whisper, sender-key or plaintext).
public struct UnidentifiedSenderMessageContent: Sendable {
    /// How a recipient should treat a message it cannot decrypt (libsignal's values).
    public struct ContentHint: RawRepresentable, Hashable, Sendable {
        /// The wire value.
        public var rawValue: UInt32
        /// Wraps a wire value.
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Show an error.
        public static var `default`: Self { Self(rawValue: 0) }
        /// The sender will resend it on request.
        public static var resendable: Self { Self(rawValue: 1) }
        /// Nothing to show if it fails.
        public static var implicit: Self { Self(rawValue: 2) }
    }

    /// The kind of the inner message.
    public let messageType: CiphertextMessage.MessageType
    /// The inner message's wire bytes.
    public var contents: Data { Data(contentBytes) }
    /// The sender's certificate.
    public let senderCertificate: SenderCertificate
    /// The content hint.
    public let contentHint: ContentHint
    /// The group the message belongs to, if any.
    public var groupId: Data? { groupIdBytes.map { Data($0) } }
    let contentBytes: [UInt8]
    let groupIdBytes: [UInt8]?

    /// Wraps `message` with the sender's certificate (Parley's non-throwing form, no group).
    public init(_ message: CiphertextMessage, from sender: SenderCertificate, contentHint: ContentHint = .default) {
        self.init(type: message.messageType, contents: message.bytes, sender: sender, contentHint: contentHint, groupId: nil)
    }

    /// Wraps `message` with the sender's certificate, for the group `groupId` (empty: no group).
    /// `throws` keeps LibSignalClient's call shape; it throws nothing.
    public init<GroupIdBytes: ContiguousBytes>(
        _ message: CiphertextMessage, from sender: SenderCertificate, contentHint: ContentHint, groupId: GroupIdBytes
    ) throws {
        let group = groupId.byteArray
        self.init(
            type: message.messageType, contents: message.bytes, sender: sender, contentHint: contentHint,
            groupId: group.isEmpty ? nil : group)
    }

    /// Wraps an already serialized inner message of `type` (its bytes are not parsed).
    /// `throws` keeps LibSignalClient's call shape; it throws nothing.
    public init<MessageBytes: ContiguousBytes, GroupIdBytes: ContiguousBytes>(
        _ message: MessageBytes, type: CiphertextMessage.MessageType, from sender: SenderCertificate,
        contentHint: ContentHint, groupId: GroupIdBytes
    ) throws {
        let group = groupId.byteArray
        self.init(
            type: type, contents: message.byteArray, sender: sender, contentHint: contentHint,
            groupId: group.isEmpty ? nil : group)
    }

    init(type: CiphertextMessage.MessageType, contents: [UInt8], sender: SenderCertificate, contentHint: ContentHint, groupId: [UInt8]?) {
        self.messageType = type
        self.contentBytes = contents
        self.senderCertificate = sender
        self.contentHint = contentHint
        self.groupIdBytes = groupId
    }

    /// Opens a sealed-sender message addressed to this device (the identity in `identityStore`) — version 1, or
    /// version 2 as a server splits it from a multi-recipient message — as LibSignalClient's
    /// `UnidentifiedSenderMessageContent(message:identityStore:context:)`: the sealing key must be the certificate's
    /// key, but the certificate is **not** validated here — call
    /// ``SenderCertificate/validate(trustRoot:time:)`` (or use ``sealedSenderDecryptToUSMC(message:trustRoot:timestamp:identityStore:context:)``).
    /// - Throws: ``SignalError/invalidSealedSenderMessage(_:)``, ``SignalError/invalidCertificate(_:)``.
    public init<Bytes: ContiguousBytes>(message sealedSenderMessage: Bytes, identityStore: IdentityKeyStore, context: StoreContext) throws {
        let message = sealedSenderMessage.byteArray
        let recipient = try identityStore.identityKeyPair(context: context)
        if let first = message.first, first >> 4 == SealedSenderV2.receivedVersion >> 4 {
            self = try SealedSenderV2.open(message, recipient: recipient)
            return
        }
        let (senderKey, bytes) = try SealedSenderEnvelope.open(message, recipient: recipient)
        try self.init(bytes: bytes)
        guard senderCertificate.publicKey == senderKey else {
            throw SignalError.invalidSealedSenderMessage("the certificate's identity key is not the key that sealed the message")
        }
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
        self.contentBytes = Array(message.content)
        self.senderCertificate = try SenderCertificate(structure: message.senderCertificate)
        self.contentHint = ContentHint(rawValue: UInt32(message.contentHint.rawValue))
        self.groupIdBytes = message.hasGroupID && !message.groupID.isEmpty ? Array(message.groupID) : nil
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
        message.content = Data(contentBytes)
        if contentHint != .default,
            let hint = Parley_Sealed_UnidentifiedSenderMessage.Message.ContentHint(rawValue: Int(contentHint.rawValue))
        {
            message.contentHint = hint
        }
        if let groupIdBytes { message.groupID = Data(groupIdBytes) }
        return ProtobufCoding.encode(message)
    }
}
