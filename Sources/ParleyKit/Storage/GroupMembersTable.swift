internal import GRDB

/// The `group_members` table: each group's members by account id. Its one owner.
enum GroupMembersTable {
    /// The members of group `conversationId`, sorted.
    static func members(conversationId: Int64, _ db: Database) throws -> [String] {
        try String.fetchAll(
            db, sql: "SELECT account_id FROM group_members WHERE thread_id = ? ORDER BY account_id", arguments: [conversationId])
    }

    /// Makes `members` the members of group `conversationId` (each also becomes a known recipient).
    static func replace(conversationId: Int64, with members: [String], _ db: Database) throws {
        try db.execute(sql: "DELETE FROM group_members WHERE thread_id = ?", arguments: [conversationId])
        for member in members {
            try db.execute(sql: "INSERT INTO group_members (thread_id, account_id) VALUES (?, ?)", arguments: [conversationId, member])
            try RecipientsTable.ensure(member, db)
        }
    }
}
