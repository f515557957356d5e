internal import GRDB

/// The `reactions` table: each author's current reaction to a message (an empty emoji once withdrawn, kept with its
/// time so an older reaction delivered later cannot return). Its one owner.
enum ReactionsTable {
    /// When `author` last reacted to message `messageId`, if ever.
    static func timestamp(of author: String, on messageId: Int64, _ db: Database) throws -> UInt64? {
        try Int64.fetchOne(
            db, sql: "SELECT timestamp FROM reactions WHERE message_id = ? AND author_account_id = ?",
            arguments: [messageId, author]
        ).map { UInt64($0) }
    }

    /// Sets `author`'s reaction on message `messageId` to `emoji` ("" withdraws it), made at `timestamp`.
    static func set(_ emoji: String, by author: String, on messageId: Int64, at timestamp: UInt64, _ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO reactions (message_id, author_account_id, emoji, timestamp) VALUES (?, ?, ?, ?)",
            arguments: [messageId, author, emoji, Int64(timestamp)])
    }

    /// The standing reactions on `messageIds`, oldest first, by message.
    static func standing(on messageIds: [Int64], _ db: Database) throws -> [Int64: [StoredReaction]] {
        guard !messageIds.isEmpty else { return [:] }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT message_id, author_account_id, emoji FROM reactions
                WHERE emoji != '' AND message_id IN (\(messageIds.map { _ in "?" }.joined(separator: ","))) ORDER BY timestamp
                """, arguments: StatementArguments(messageIds))
        return Dictionary(grouping: rows, by: { $0[0] as Int64 }).mapValues {
            $0.map { StoredReaction(authorAccountId: $0[1], emoji: $0[2]) }
        }
    }

    /// Erases the reactions on message `messageId`.
    static func delete(on messageId: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM reactions WHERE message_id = ?", arguments: [messageId])
    }
}
