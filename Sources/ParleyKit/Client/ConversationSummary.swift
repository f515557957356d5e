import Foundation

/// One conversation in the inbox.
public struct ConversationSummary: Sendable, Equatable, Codable {
    /// Local thread id.
    public let threadId: Int64
    /// The other account (empty for a group).
    public let accountId: String
    /// Its username, when known.
    public let username: String?
    /// The group's id, for a group conversation.
    public let groupId: Data?
    /// The group's title.
    public let title: String?
    /// The last message's text (or a placeholder), for a preview.
    public let lastMessagePreview: String?
    /// Messages not yet read.
    public let unreadCount: Int
    /// When the conversation last changed (milliseconds since 1970).
    public let updated: UInt64
    /// Notifications are muted until this time (milliseconds since 1970; 0: not muted).
    public let mutedUntil: UInt64
    /// The disappearing-message timer, seconds (0: off).
    public let expireTimer: UInt32
}
