import Foundation
internal import GRDB

/// Reads messages for presentation: single messages, pages of a conversation, what arrived after a cursor, with
/// their reactions and authors' names.
enum MessageLookup {
    /// The columns every message read selects.
    static let columns = """
        m.*, (SELECT COUNT(*) FROM attachments a WHERE a.message_id = m.id) AS attachment_count,
        (SELECT r.username FROM recipients r WHERE r.account_id = m.author_account_id) AS author_username
        """

    /// The message with local id `id`.
    static func message(_ id: Int64, _ db: Database) throws -> StoredMessage? {
        try withReactions(
            try Row.fetchAll(db, sql: "SELECT \(columns) FROM messages m WHERE m.id = ?", arguments: [id])
                .map(StoredMessage.init(row:)), db
        ).first
    }

    /// The earlier versions of message `id`'s text, oldest first.
    static func editHistory(_ id: Int64, _ db: Database) throws -> [String] {
        try MessageEditsTable.history(of: id, db)
    }

    /// A page of conversation `conversationId`'s history, newest first, older than message id `before`.
    static func page(conversationId: Int64, before: Int64?, limit: Int, _ db: Database) throws -> MessagePage {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT \(columns) FROM messages m WHERE m.thread_id = ? AND m.id < ? ORDER BY m.id DESC LIMIT ?
                """, arguments: [conversationId, before ?? Int64.max, limit + 1])
        let messages = try withReactions(rows.prefix(limit).map(StoredMessage.init(row:)), db)
        return MessagePage(messages: messages, nextCursor: rows.count > limit ? messages.last?.id : nil)
    }

    /// Up to `limit` messages whose text contains `text` (case-insensitively for ASCII letters), newest first; deleted
    /// messages, notices and undecryptable ones left out. `%`, `_` and `\` in `text` match themselves.
    static func search(_ text: String, limit: Int, _ db: Database) throws -> [StoredMessage] {
        let pattern =
            "%"
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
        return try withReactions(
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(columns) FROM messages m
                    WHERE m.body LIKE ? ESCAPE '\\' AND m.deleted = 0 AND m.kind = ? AND m.status != ? ORDER BY m.id DESC LIMIT ?
                    """, arguments: [pattern, MessageKind.message.rawValue, MessageStatus.undecryptable.rawValue, limit]
            ).map(StoredMessage.init(row:)), db)
    }

    /// Up to `limit` messages with a local id above `cursor`, oldest first: from others, and this account's own from
    /// devices other than `device`; undecryptable copies left out.
    static func received(after cursor: Int64, exceptFromDevice device: UInt32, limit: Int, _ db: Database) throws -> [StoredMessage] {
        try withReactions(
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(columns) FROM messages m
                    WHERE m.id > ? AND (m.outgoing = 0 OR m.author_device_id != ?) AND m.status != ? ORDER BY m.id LIMIT ?
                    """, arguments: [cursor, Int64(device), MessageStatus.undecryptable.rawValue, limit]
            ).map(StoredMessage.init(row:)), db)
    }

    /// `messages` with their reactions, in one query.
    static func withReactions(_ messages: [StoredMessage], _ db: Database) throws -> [StoredMessage] {
        guard !messages.isEmpty else { return messages }
        let byMessage = try ReactionsTable.standing(on: messages.map(\.id), db)
        return messages.map { message in
            var message = message
            message.reactions = byMessage[message.id] ?? []
            return message
        }
    }
}

extension StoredMessage {
    init(row: Row) {
        self.init(
            id: row["id"], outgoing: row["outgoing"], authorAccountId: row["author_account_id"],
            timestamp: UInt64(row["timestamp"] as Int64), body: row["body"], mentions: MessagesTable.mentions(inColumn: row["mentions"]),
            status: MessageStatus(rawValue: row["status"]) ?? .failed, failureReason: row["failure_reason"],
            replyToId: row["reply_to_id"], attachmentCount: row["attachment_count"],
            kind: MessageKind(rawValue: row["kind"]) ?? .message, editedAt: (row["edited_at"] as Int64?).map(UInt64.init),
            deleted: row["deleted"], expireTimer: (row["expire_timer"] as Int64).clampedUInt32,
            expiresAt: (row["expire_at"] as Int64?).map(UInt64.init), sealed: row["sealed"], conversationId: row["thread_id"],
            authorDeviceId: UInt32(truncatingIfNeeded: row["author_device_id"] as Int64), authorUsername: row["author_username"],
            serverTimestamp: (row["server_timestamp"] as Int64?).map(UInt64.init), reactions: [])
    }
}
