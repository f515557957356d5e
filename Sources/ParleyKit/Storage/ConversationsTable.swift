import Foundation
internal import GRDB

/// The `threads` table (its SQL name since the first schema; a conversation everywhere else): 1:1 conversations and groups, with each one's timer, mute, pin, unread count, last message and (for
/// a group) title, revision and this device's sender-key distribution. Its one owner.
enum ConversationsTable {
    /// The 1:1 conversation with `accountId`, if there is one.
    static func id(with accountId: String, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM threads WHERE recipient_account_id = ?", arguments: [accountId])
    }

    /// The 1:1 conversation with `accountId`, created with its recipient (named `username` when given) when missing.
    static func oneToOne(with accountId: String, username: String? = nil, now: UInt64, _ db: Database) throws -> Int64 {
        try RecipientsTable.ensure(accountId, username: username, db)
        if let id = try id(with: accountId, db) { return id }
        try db.execute(sql: "INSERT INTO threads (recipient_account_id, updated) VALUES (?, ?)", arguments: [accountId, Int64(now)])
        return db.lastInsertedRowID
    }

    /// The disappearing-message timer of conversation `conversationId`, seconds.
    static func expireTimer(conversationId: Int64, _ db: Database) throws -> UInt32 {
        (try Int64.fetchOne(db, sql: "SELECT expire_timer FROM threads WHERE id = ?", arguments: [conversationId]) ?? 0).clampedUInt32
    }

    /// Sets conversation `conversationId`'s disappearing-message timer (seconds).
    static func setExpireTimer(_ seconds: UInt32, conversationId: Int64, _ db: Database) throws {
        try db.execute(sql: "UPDATE threads SET expire_timer = ? WHERE id = ?", arguments: [Int64(seconds), conversationId])
    }

    /// Mutes conversation `conversationId` until `until` (milliseconds since 1970; 0 unmutes).
    static func mute(conversationId: Int64, until: UInt64, _ db: Database) throws {
        try db.execute(sql: "UPDATE threads SET muted_until = ? WHERE id = ?", arguments: [Int64(clamping: until), conversationId])
    }

    /// Pins conversation `conversationId` (at `at`, milliseconds since 1970), or unpins it (`at` 0).
    static func pin(conversationId: Int64, at: UInt64, _ db: Database) throws {
        try db.execute(sql: "UPDATE threads SET pinned_at = ? WHERE id = ?", arguments: [Int64(clamping: at), conversationId])
    }

    /// How many conversations are pinned.
    static func pinnedCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM threads WHERE pinned_at > 0") ?? 0
    }

    /// Makes message `messageId` (written at `timestamp`) conversation `conversationId`'s last, counting it unread when `unread`.
    static func noteMessage(_ messageId: Int64, at timestamp: UInt64, unread: Bool, conversationId: Int64, _ db: Database) throws {
        try db.execute(
            sql: "UPDATE threads SET last_message_id = ?, updated = ?, unread_count = unread_count + ? WHERE id = ?",
            arguments: [messageId, Int64(timestamp), unread ? 1 : 0, conversationId])
    }

    /// Takes one message out of conversation `conversationId`'s unread count.
    static func decrementUnread(conversationId: Int64, _ db: Database) throws {
        try db.execute(sql: "UPDATE threads SET unread_count = MAX(unread_count - 1, 0) WHERE id = ?", arguments: [conversationId])
    }

    /// Sets conversation `conversationId`'s unread count to zero.
    static func clearUnread(conversationId: Int64, _ db: Database) throws {
        try db.execute(sql: "UPDATE threads SET unread_count = 0 WHERE id = ?", arguments: [conversationId])
    }

    /// Counts conversation `conversationId`'s last message and unread messages again (after messages left it).
    static func recount(conversationId: Int64, _ db: Database) throws {
        try db.execute(
            sql: """
                UPDATE threads SET last_message_id = (SELECT max(id) FROM messages WHERE thread_id = ?),
                    unread_count = (SELECT count(*) FROM messages WHERE thread_id = ? AND read = 0 AND outgoing = 0)
                WHERE id = ?
                """, arguments: [conversationId, conversationId, conversationId])
    }

    /// Moves every message of conversation `source` into conversation `target`, which becomes the latest conversation, and deletes `source`.
    static func merge(_ source: Int64, into target: Int64, now: UInt64, _ db: Database) throws {
        try MessagesTable.move(from: source, to: target, db)
        try db.execute(
            sql: "UPDATE threads SET last_message_id = (SELECT MAX(id) FROM messages WHERE thread_id = ?), updated = ? WHERE id = ?",
            arguments: [target, Int64(now), target])
        try db.execute(sql: "DELETE FROM threads WHERE id = ?", arguments: [source])
    }

    /// Makes conversation `conversationId` the 1:1 conversation with `accountId`.
    static func reassign(_ conversationId: Int64, to accountId: String, _ db: Database) throws {
        try db.execute(sql: "UPDATE threads SET recipient_account_id = ? WHERE id = ?", arguments: [accountId, conversationId])
    }

    /// The inbox: one entry per conversation, pinned ones first (the latest pinned on top), then the most recent first.
    static func summaries(_ db: Database) throws -> [ConversationSummary] {
        try summaries(where: "1", [], limit: -1, offset: 0, db)
    }

    /// `limit` entries of the inbox from the `offset`th, in the inbox's order.
    static func summaries(offset: Int, limit: Int, _ db: Database) throws -> [ConversationSummary] {
        try summaries(where: "1", [], limit: limit, offset: offset, db)
    }

    /// The inbox entry of conversation `id`, if there is one.
    static func summary(_ id: Int64, _ db: Database) throws -> ConversationSummary? {
        try summaries(where: "t.id = ?", [id], limit: 1, offset: 0, db).first
    }

    /// How many conversations there are.
    static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM threads") ?? 0
    }

    /// The inbox entries matching `condition`, in the inbox's order (`limit` -1: all of them).
    private static func summaries(
        where condition: String, _ arguments: StatementArguments, limit: Int, offset: Int, _ db: Database
    ) throws -> [ConversationSummary] {
        // The preview's kind is worked out in SQL (1: deleted, 2: a timer change, 3: undecryptable, 0: the body), one
        // integer to decode instead of three columns: decoding is most of this query's cost.
        try Row.fetchAll(
            db,
            sql: """
                SELECT t.id, t.recipient_account_id, r.username, substr(m.body, 1, 80) AS body,
                       CASE WHEN m.deleted THEN 1 WHEN m.kind = ? THEN 2 WHEN m.body IS NULL AND m.status = ? THEN 3 ELSE 0 END,
                       t.unread_count, t.updated, t.muted_until, t.expire_timer, m.expire_timer, t.group_id, t.title, t.pinned_at
                FROM threads t LEFT JOIN recipients r ON r.account_id = t.recipient_account_id
                LEFT JOIN messages m ON m.id = t.last_message_id
                WHERE \(condition)
                ORDER BY t.pinned_at DESC, t.updated DESC, t.id DESC LIMIT ? OFFSET ?
                """,
            arguments: [MessageKind.timerChange.rawValue, MessageStatus.undecryptable.rawValue] + arguments + [limit, offset]
        ).map { row in
            // Columns by position: a lookup by name compares lowercased names, the larger part of this query's cost.
            let preview: String? =
                switch row[4] as Int64 {
                case 1: "(deleted)"
                case 2: TimerDescription.notice((row[9] as Int64).clampedUInt32)
                case 3: "(could not decrypt)"
                default: row[3]
                }
            return ConversationSummary(
                conversationId: row[0], accountId: row[1] ?? "", username: row[2], groupId: row[10], title: row[11],
                lastMessagePreview: preview,
                unreadCount: row[5], updated: UInt64(row[6] as Int64), mutedUntil: UInt64(max(0, row[7] as Int64)),
                expireTimer: (row[8] as Int64).clampedUInt32, pinnedAt: UInt64(max(0, row[12] as Int64)))
        }
    }

    // MARK: Groups

    /// The group with id `id`, if this device knows it.
    static func group(id: Data, _ db: Database) throws -> StoredGroup? {
        try Int64.fetchOne(db, sql: "SELECT id FROM threads WHERE group_id = ?", arguments: [id]).flatMap {
            try group(conversationId: $0, db)
        }
    }

    /// The group whose conversation is `conversationId`; `nil` when there is none or it is a 1:1 conversation.
    static func group(conversationId: Int64, _ db: Database) throws -> StoredGroup? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT group_id, title, group_revision, left_group, master_key, announcements_only, administrators FROM threads
                    LEFT JOIN server_groups ON server_groups.thread_id = threads.id
                    WHERE id = ? AND group_id IS NOT NULL
                    """,
                arguments: [conversationId])
        else { return nil }
        return StoredGroup(
            conversationId: conversationId, id: row[0], title: row[1] ?? "", revision: (row[2] as Int64).clampedUInt32,
            members: try GroupMembersTable.members(conversationId: conversationId, db), left: row[3], masterKey: row[4],
            announcementsOnly: (row[5] as Bool?) ?? false,
            administrators: ((row[6] as String?) ?? "").split(separator: "\n").map(String.init))
    }

    /// Every group this account is or was in, by title.
    static func groups(_ db: Database) throws -> [StoredGroup] {
        try Int64.fetchAll(db, sql: "SELECT id FROM threads WHERE group_id IS NOT NULL ORDER BY title, id").compactMap {
            try group(conversationId: $0, db)
        }
    }

    /// A new group's conversation.
    static func insertGroup(id: Data, title: String, revision: UInt32, now: UInt64, _ db: Database) throws -> Int64 {
        try db.execute(
            sql: "INSERT INTO threads (group_id, title, updated, group_revision) VALUES (?, ?, ?, ?)",
            arguments: [id, title, Int64(now), Int64(revision)])
        return db.lastInsertedRowID
    }

    /// Records group `conversationId`'s title and revision after a change, and whether this account left it.
    static func updateGroup(conversationId: Int64, title: String, revision: UInt32, left: Bool, _ db: Database) throws {
        try db.execute(
            sql: "UPDATE threads SET title = ?, group_revision = ?, left_group = ? WHERE id = ?",
            arguments: [title, Int64(revision), left, conversationId])
    }

    /// This device's distribution in group `conversationId`, started now when there is none (new group, or after a removal).
    static func currentDistribution(conversationId: Int64, _ db: Database) throws -> UUID {
        if let text = try String.fetchOne(db, sql: "SELECT distribution_id FROM threads WHERE id = ?", arguments: [conversationId]),
            let existing = UUID(uuidString: text)
        {
            return existing
        }
        let fresh = UUID()
        try db.execute(
            sql: "UPDATE threads SET distribution_id = ? WHERE id = ?", arguments: [fresh.uuidString.lowercased(), conversationId])
        return fresh
    }

    /// Ends this device's distribution in group `conversationId`: its next group message starts a new one.
    static func endDistribution(conversationId: Int64, _ db: Database) throws {
        try db.execute(sql: "UPDATE threads SET distribution_id = NULL WHERE id = ?", arguments: [conversationId])
    }
}
