/// One message as the history shows it.
public struct StoredMessage: Sendable, Equatable, Codable {
    /// Local id (also the pagination cursor).
    public let id: Int64
    /// Whether this account sent it.
    public let outgoing: Bool
    /// The author's account.
    public let authorAccountId: String
    /// The sender's timestamp.
    public let timestamp: UInt64
    /// The text (the latest version when edited; `nil` once deleted).
    public let body: String?
    /// The accounts the text mentions (ranges of ``body`` in UTF-16 code units).
    public let mentions: [Mention]
    /// Where it stands.
    public let status: MessageStatus
    /// Why it failed, for failed and undecryptable messages.
    public let failureReason: String?
    /// The local id of the message it replies to.
    public let replyToId: Int64?
    /// Attachment count.
    public let attachmentCount: Int
    /// A message, or a notice (a timer change).
    public let kind: MessageKind
    /// When the text was last edited (the edit's timestamp), if ever.
    public let editedAt: UInt64?
    /// Deleted for everyone: a tombstone whose content is gone.
    public let deleted: Bool
    /// The disappearing-message timer it was sent with, seconds (for a timer notice: the new timer).
    public let expireTimer: UInt32
    /// When it disappears (milliseconds since 1970), once its timer runs.
    public let expiresAt: UInt64?
    /// It arrived sealed: the server was not told who sent it (sealed sender).
    public let sealed: Bool
    /// The conversation it belongs to.
    public let conversationId: Int64
    /// The author's device.
    public let authorDeviceId: UInt32
    /// The author's username, when this device knows it.
    public let authorUsername: String?
    /// When the server accepted it (milliseconds since 1970), for received messages.
    public let serverTimestamp: UInt64?
    /// Reactions, one per person.
    public var reactions: [StoredReaction]
}

extension StoredMessage {
    /// JSON keys are the properties' names, but for ``conversationId``: `threadId`, its name in earlier releases' output,
    /// kept for scripts that read it.
    enum CodingKeys: String, CodingKey {
        case id, outgoing, authorAccountId, timestamp, body, mentions, status, failureReason, replyToId, attachmentCount, kind
        case editedAt, deleted, expireTimer, expiresAt, sealed
        case conversationId = "threadId"
        case authorDeviceId, authorUsername, serverTimestamp, reactions
    }
}

extension StoredMessage {
    /// Every field, `body` included when there is none (`null`), so that JSON readers see one shape for every message.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(outgoing, forKey: .outgoing)
        try container.encode(authorAccountId, forKey: .authorAccountId)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(body, forKey: .body)
        try container.encode(mentions, forKey: .mentions)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(failureReason, forKey: .failureReason)
        try container.encodeIfPresent(replyToId, forKey: .replyToId)
        try container.encode(attachmentCount, forKey: .attachmentCount)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(editedAt, forKey: .editedAt)
        try container.encode(deleted, forKey: .deleted)
        try container.encode(expireTimer, forKey: .expireTimer)
        try container.encodeIfPresent(expiresAt, forKey: .expiresAt)
        try container.encode(sealed, forKey: .sealed)
        try container.encode(conversationId, forKey: .conversationId)
        try container.encode(authorDeviceId, forKey: .authorDeviceId)
        try container.encodeIfPresent(authorUsername, forKey: .authorUsername)
        try container.encodeIfPresent(serverTimestamp, forKey: .serverTimestamp)
        try container.encode(reactions, forKey: .reactions)
    }
}

/// One person's reaction to a message.
public struct StoredReaction: Sendable, Equatable, Codable {
    /// Who reacted.
    public let authorAccountId: String
    /// The emoji.
    public let emoji: String
}
