/// A message waiting in a device's mailbox, as the server hands it out.
public struct Envelope: Codable, Sendable, Equatable {
    /// Server-assigned id, used to acknowledge (delete) it.
    public let guid: String
    /// The sender's account; `nil` for a sealed-sender envelope (type 6), whose sender only the recipient learns, from
    /// the sender certificate inside.
    public let sourceAccountId: String?
    /// The sender's device; `nil` for a sealed-sender envelope.
    public let sourceDeviceId: UInt32?
    /// `CiphertextMessage.MessageType` raw value, or 6 (``OutgoingMessage/unidentifiedSenderType``) for sealed sender.
    public let type: UInt8
    /// The serialized message, base64.
    public let content: String
    /// The sender's timestamp.
    public let timestamp: UInt64
    /// When the server accepted it.
    public let serverTimestamp: UInt64

    /// An envelope.
    public init(
        guid: String, sourceAccountId: String?, sourceDeviceId: UInt32?, type: UInt8, content: String,
        timestamp: UInt64, serverTimestamp: UInt64
    ) {
        self.guid = guid
        self.sourceAccountId = sourceAccountId
        self.sourceDeviceId = sourceDeviceId
        self.type = type
        self.content = content
        self.timestamp = timestamp
        self.serverTimestamp = serverTimestamp
    }
}

/// `GET /v1/messages`: the oldest pending envelopes of the authenticated device.
public struct EnvelopeListResponse: Codable, Sendable, Equatable {
    /// Oldest first.
    public let messages: [Envelope]
    /// Whether more are waiting (fetch again after acknowledging these).
    public let more: Bool

    /// A page of envelopes.
    public init(messages: [Envelope], more: Bool) {
        self.messages = messages
        self.more = more
    }
}
