internal import GRDB

/// The `group_members` table: each group's members by account id. Its one owner.
enum GroupMembersTable {
    /// The members of group `threadId`, sorted.
    static func members(threadId: Int64, _ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT account_id FROM group_members WHERE thread_id = ? ORDER BY account_id", arguments: [threadId])
    }

    /// Makes `members` the members of group `threadId` (each also becomes a known recipient).
    static func replace(threadId: Int64, with members: [String], _ db: Database) throws {
        try db.execute(sql: "DELETE FROM group_members WHERE thread_id = ?", arguments: [threadId])
        for member in members {
            try db.execute(sql: "INSERT INTO group_members (thread_id, account_id) VALUES (?, ?)", arguments: [threadId, member])
            try RecipientsTable.ensure(member, db)
        }
    }
}
