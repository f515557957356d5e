internal import GRDB

/// The `message_edits` table: the earlier versions of edited messages' text. Its one owner.
enum MessageEditsTable {
    /// Keeps `body` as the version of message `messageId` current until `timestamp`.
    static func keep(_ body: String?, of messageId: Int64, until timestamp: UInt64, _ db: Database) throws {
        try db.execute(
            sql: "INSERT OR IGNORE INTO message_edits (message_id, timestamp, body) VALUES (?, ?, ?)",
            arguments: [messageId, Int64(timestamp), body])
    }

    /// The earlier versions of message `messageId`'s text, oldest first.
    static func history(of messageId: Int64, _ db: Database) throws -> [String] {
        try String.fetchAll(
            db, sql: "SELECT coalesce(body, '') FROM message_edits WHERE message_id = ? ORDER BY timestamp", arguments: [messageId])
    }

    /// The times message `messageId`'s versions were replaced.
    static func timestamps(of messageId: Int64, _ db: Database) throws -> [UInt64] {
        try Int64.fetchAll(db, sql: "SELECT timestamp FROM message_edits WHERE message_id = ?", arguments: [messageId]).map { UInt64($0) }
    }

    /// How many times message `messageId` was edited.
    static func count(of messageId: Int64, _ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM message_edits WHERE message_id = ?", arguments: [messageId]) ?? 0
    }

    /// Erases message `messageId`'s earlier versions.
    static func delete(of messageId: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM message_edits WHERE message_id = ?", arguments: [messageId])
    }
}
