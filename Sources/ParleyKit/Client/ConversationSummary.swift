/// One conversation in the inbox.
public struct ConversationSummary: Sendable, Equatable, Codable {
    /// Local thread id.
    public let threadId: Int64
    /// The other account.
    public let accountId: String
    /// Its username, when known.
    public let username: String?
    /// The last message's text (or a placeholder), for a preview.
    public let lastMessagePreview: String?
    /// Messages not yet read.
    public let unreadCount: Int
    /// When the conversation last changed (milliseconds since 1970).
    public let updated: UInt64
}

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
    /// The text.
    public let body: String?
    /// Where it stands.
    public let status: MessageStatus
    /// Why it failed, for failed and undecryptable messages.
    public let failureReason: String?
    /// The local id of the message it replies to.
    public let replyToId: Int64?
    /// Attachment count.
    public let attachmentCount: Int
}

/// A page of history, newest first.
public struct MessagePage: Sendable, Equatable, Codable {
    /// The messages.
    public let messages: [StoredMessage]
    /// Pass as `before` to get the next (older) page; `nil` at the beginning of the conversation.
    public let nextCursor: Int64?

    /// A page.
    public init(messages: [StoredMessage], nextCursor: Int64?) {
        self.messages = messages
        self.nextCursor = nextCursor
    }
}
