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
