import GRDB

/// Reads single messages and pages for presentation.
public enum MessageLookup {
    /// The columns every message read selects.
    static let columns = """
        m.*, (SELECT COUNT(*) FROM attachments a WHERE a.message_id = m.id) AS attachment_count,
        (SELECT r.username FROM recipients r WHERE r.account_id = m.author_account_id) AS author_username
        """

    /// The message with local id `id`.
    public static func message(_ id: Int64, _ db: Database) throws -> StoredMessage? {
        try withReactions(try Row.fetchAll(db, sql: "SELECT \(columns) FROM messages m WHERE m.id = ?", arguments: [id])
            .map(StoredMessage.init(row:)), db).first
    }

    /// The earlier versions of message `id`'s text, oldest first.
    public static func editHistory(_ id: Int64, _ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT coalesce(body, '') FROM message_edits WHERE message_id = ? ORDER BY timestamp", arguments: [id])
    }

    /// `messages` with their reactions, in one query.
    static func withReactions(_ messages: [StoredMessage], _ db: Database) throws -> [StoredMessage] {
        guard !messages.isEmpty else { return messages }
        let ids = messages.map(\.id)
        let rows = try Row.fetchAll(db, sql: """
            SELECT message_id, author_account_id, emoji FROM reactions
            WHERE emoji != '' AND message_id IN (\(ids.map { _ in "?" }.joined(separator: ","))) ORDER BY timestamp
            """, arguments: StatementArguments(ids))
        let byMessage = Dictionary(grouping: rows, by: { $0[0] as Int64 })
        return messages.map { message in
            var message = message
            message.reactions = (byMessage[message.id] ?? []).map { StoredReaction(authorAccountId: $0[1], emoji: $0[2]) }
            return message
        }
    }
}

extension StoredMessage {
    init(row: Row) {
        self.init(
            id: row["id"], outgoing: row["outgoing"], authorAccountId: row["author_account_id"],
            timestamp: UInt64(row["timestamp"] as Int64), body: row["body"],
            status: MessageStatus(rawValue: row["status"]) ?? .failed, failureReason: row["failure_reason"],
            replyToId: row["reply_to_id"], attachmentCount: row["attachment_count"],
            kind: MessageKind(rawValue: row["kind"]) ?? .message, editedAt: (row["edited_at"] as Int64?).map(UInt64.init),
            deleted: row["deleted"], expireTimer: (row["expire_timer"] as Int64).clampedUInt32,
            expiresAt: (row["expire_at"] as Int64?).map(UInt64.init), sealed: row["sealed"], threadId: row["thread_id"],
            authorDeviceId: UInt32(truncatingIfNeeded: row["author_device_id"] as Int64), authorUsername: row["author_username"],
            serverTimestamp: (row["server_timestamp"] as Int64?).map(UInt64.init), reactions: [])
    }
}
