import GRDB

/// Reads single messages for presentation.
public enum MessageLookup {
    /// The message with local id `id`.
    public static func message(_ id: Int64, _ db: Database) throws -> StoredMessage? {
        try Row.fetchOne(db, sql: """
            SELECT m.*, (SELECT COUNT(*) FROM attachments a WHERE a.message_id = m.id) AS attachment_count FROM messages m WHERE m.id = ?
            """, arguments: [id]).map(StoredMessage.init(row:))
    }
}

extension StoredMessage {
    init(row: Row) {
        self.init(
            id: row["id"], outgoing: row["outgoing"], authorAccountId: row["author_account_id"],
            timestamp: UInt64(row["timestamp"] as Int64), body: row["body"],
            status: MessageStatus(rawValue: row["status"]) ?? .failed, failureReason: row["failure_reason"],
            replyToId: row["reply_to_id"], attachmentCount: row["attachment_count"])
    }
}
