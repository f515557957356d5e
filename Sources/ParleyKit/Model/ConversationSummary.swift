import Foundation

/// One conversation in the inbox.
public struct ConversationSummary: Sendable, Equatable, Codable {
    /// Local conversation id.
    public let conversationId: Int64
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
    /// When the conversation was pinned to the top of the inbox (milliseconds since 1970; 0: not pinned).
    public let pinnedAt: UInt64

    /// Whether the conversation is pinned to the top of the inbox.
    public var isPinned: Bool { pinnedAt > 0 }

    /// A summary of the conversation described.
    public init(
        conversationId: Int64, accountId: String, username: String?, groupId: Data?, title: String?, lastMessagePreview: String?,
        unreadCount: Int, updated: UInt64, mutedUntil: UInt64, expireTimer: UInt32, pinnedAt: UInt64 = 0
    ) {
        self.conversationId = conversationId
        self.accountId = accountId
        self.username = username
        self.groupId = groupId
        self.title = title
        self.lastMessagePreview = lastMessagePreview
        self.unreadCount = unreadCount
        self.updated = updated
        self.mutedUntil = mutedUntil
        self.expireTimer = expireTimer
        self.pinnedAt = pinnedAt
    }
}

extension ConversationSummary {
    /// JSON keys are the properties' names, but for ``conversationId``: `threadId`, its name in earlier releases' output,
    /// kept for scripts that read it.
    private enum CodingKeys: String, CodingKey {
        case conversationId = "threadId"
        case accountId, username, groupId, title, lastMessagePreview, unreadCount, updated, mutedUntil, expireTimer, pinnedAt
    }

    /// The group id in hex, as every command prints it (``GroupID/hex``); the rest as named.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(conversationId, forKey: .conversationId)
        try container.encode(accountId, forKey: .accountId)
        try container.encodeIfPresent(username, forKey: .username)
        try container.encodeIfPresent(groupId.map { GroupID($0).hex }, forKey: .groupId)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(lastMessagePreview, forKey: .lastMessagePreview)
        try container.encode(unreadCount, forKey: .unreadCount)
        try container.encode(updated, forKey: .updated)
        try container.encode(mutedUntil, forKey: .mutedUntil)
        try container.encode(expireTimer, forKey: .expireTimer)
        try container.encode(pinnedAt, forKey: .pinnedAt)
    }

    /// Reads what ``encode(to:)`` writes (a group id in hex or base64).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let group = try container.decodeIfPresent(String.self, forKey: .groupId)
        self.init(
            conversationId: try container.decode(Int64.self, forKey: .conversationId),
            accountId: try container.decode(String.self, forKey: .accountId),
            username: try container.decodeIfPresent(String.self, forKey: .username), groupId: try group.map { try GroupID(text: $0).data },
            title: try container.decodeIfPresent(String.self, forKey: .title),
            lastMessagePreview: try container.decodeIfPresent(String.self, forKey: .lastMessagePreview),
            unreadCount: try container.decode(Int.self, forKey: .unreadCount), updated: try container.decode(UInt64.self, forKey: .updated),
            mutedUntil: try container.decode(UInt64.self, forKey: .mutedUntil),
            expireTimer: try container.decode(UInt32.self, forKey: .expireTimer),
            pinnedAt: try container.decodeIfPresent(UInt64.self, forKey: .pinnedAt) ?? 0)
    }
}
