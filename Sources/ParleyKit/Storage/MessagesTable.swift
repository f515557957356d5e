import Foundation
internal import GRDB

/// The `messages` table: every message and notice of every conversation, with its status, disappearing timer and
/// edits' current text. Its one owner; the rules about a row's life are written here once — a timer starts
/// (``startTimer(messageId:now:)``), a status only moves forward (``setStatus(_:messageId:reason:_:)``), a send
/// ends (``markSent(_:serverTimestamp:now:_:)``, ``markFailed(_:reason:now:_:)``) — and presentation reads go
/// through ``MessageLookup``.
enum MessagesTable {
    /// Inserts a message and makes it its conversation's last; `nil` when the same (author, device, timestamp) is already
    /// stored (a duplicate delivery).
    static func insert(_ message: NewMessage, _ db: Database) throws -> Int64? {
        let unread = !message.outgoing && message.kind == .message
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO messages (thread_id, outgoing, author_account_id, author_device_id, timestamp, server_timestamp,
                                                body, status, reply_to_id, read, kind, expire_timer, mentions)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                message.conversationId, message.outgoing, message.authorAccountId, Int64(message.authorDeviceId),
                Int64(message.timestamp), message.serverTimestamp.map(Int64.init), message.body,
                message.status.rawValue, message.replyToId, !unread, message.kind.rawValue, Int64(message.expireTimer),
                try mentionsColumn(message.mentions),
            ])
        guard db.changesCount > 0 else { return nil }
        let id = db.lastInsertedRowID
        // The conversation moves up by when the server took the message when that is earlier: a sender's clock set
        // years ahead cannot pin its conversation to the top.
        let updated = min(message.timestamp, message.serverTimestamp ?? message.timestamp)
        try ConversationsTable.noteMessage(id, at: updated, unread: unread, conversationId: message.conversationId, db)
        return id
    }

    /// The `mentions` column's value for `mentions`: a JSON array, `NULL` for none.
    static func mentionsColumn(_ mentions: [Mention]) throws -> String? {
        mentions.isEmpty ? nil : String(decoding: try JSONEncoder().encode(mentions), as: UTF8.self)
    }

    /// The mentions in a `mentions` column's value (none when it is `NULL` or unreadable).
    static func mentions(inColumn text: String?) -> [Mention] {
        guard let text else { return [] }
        return (try? JSONDecoder().decode([Mention].self, from: Data(text.utf8))) ?? []
    }

    /// The local id of the message `authorAccountId` sent at `timestamp` (in conversation `conversationId` when given: a quote or a
    /// reaction names a message of its own conversation); `nil` when there is none.
    static func id(author authorAccountId: String, timestamp: UInt64, in conversationId: Int64? = nil, _ db: Database) throws -> Int64? {
        guard let timestamp = Int64(exactly: timestamp) else { return nil }
        // With no thread, `coalesce(?, thread_id)` is the row's own thread (never NULL): any thread matches.
        return try Int64.fetchOne(
            db, sql: "SELECT id FROM messages WHERE author_account_id = ? AND timestamp = ? AND thread_id = coalesce(?, thread_id)",
            arguments: [authorAccountId, timestamp, conversationId])
    }

    /// Whether the message `authorAccountId` sent at `timestamp` is here, in any conversation, and was decrypted:
    /// `false` while it has not arrived, or only its undecryptable copy has.
    static func hasReadable(author authorAccountId: String, timestamp: UInt64, _ db: Database) throws -> Bool {
        guard let timestamp = Int64(exactly: timestamp) else { return false }
        return try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM messages WHERE author_account_id = ? AND timestamp = ? AND status != ?)
                """, arguments: [authorAccountId, timestamp, MessageStatus.undecryptable.rawValue]) ?? false
    }

    /// Whether the message `authorAccountId`'s `device` sent at `timestamp` is stored (in any state).
    static func exists(author authorAccountId: String, device: UInt32, timestamp: UInt64, _ db: Database) throws -> Bool {
        guard let timestamp = Int64(exactly: timestamp) else { return false }
        return try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM messages WHERE author_account_id = ? AND author_device_id = ? AND timestamp = ?)
                """, arguments: [authorAccountId, Int64(device), timestamp]) ?? false
    }

    /// Whether conversation `conversationId` has a message sent at `timestamp` by an author other than `authorAccountId`.
    static func hasMessage(at timestamp: UInt64, in conversationId: Int64, notBy authorAccountId: String, _ db: Database) throws -> Bool {
        guard let timestamp = Int64(exactly: timestamp) else { return false }
        return try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM messages WHERE thread_id = ? AND timestamp = ? AND author_account_id != ?)
                """, arguments: [conversationId, timestamp, authorAccountId]) ?? false
    }

    /// The local id of the message this account (`localAccountId`) sent at `timestamp` to a conversation `recipient` is
    /// in — the 1:1 with it, or a group it is a member of — for its receipts; `nil` for any other message.
    static func sent(at timestamp: UInt64, by localAccountId: String, seenBy recipient: String, _ db: Database) throws -> Int64? {
        guard let timestamp = Int64(exactly: timestamp) else { return nil }
        return try Int64.fetchOne(
            db,
            sql: """
                SELECT m.id FROM messages m JOIN threads t ON t.id = m.thread_id
                WHERE m.author_account_id = ? AND m.outgoing = 1 AND m.timestamp = ? AND (t.recipient_account_id = ?
                    OR EXISTS (SELECT 1 FROM group_members g WHERE g.thread_id = t.id AND g.account_id = ?))
                """, arguments: [localAccountId, timestamp, recipient, recipient])
    }

    /// Deletes the undecryptable copy of the message `authorAccountId`'s `device` sent at `timestamp`, if there is one
    /// (its resent copy decrypted), and takes it out of its conversation's unread count.
    static func removeUndecryptable(author authorAccountId: String, device: UInt32, timestamp: UInt64, _ db: Database) throws {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT id, thread_id, read FROM messages WHERE author_account_id = ? AND author_device_id = ? AND timestamp = ? AND status = ?
                    """, arguments: [authorAccountId, Int64(device), Int64(timestamp), MessageStatus.undecryptable.rawValue])
        else { return }
        try delete(row["id"], db)
        if !(row["read"] as Bool) { try ConversationsTable.decrementUnread(conversationId: row["thread_id"], db) }
    }

    /// Deletes the row of message `id` (what it carries is erased first: ``ConversationActions/erase(_:_:)``).
    static func delete(_ id: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM messages WHERE id = ?", arguments: [id])
    }

    // MARK: Status and timers

    /// Whether this account has written to `accountId` in their 1:1 conversation (someone it knows, not only someone who
    /// wrote to it).
    static func hasWritten(to accountId: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM messages m JOIN threads t ON t.id = m.thread_id
                               WHERE t.recipient_account_id = ? AND m.outgoing = 1 AND m.kind = 'message')
                """, arguments: [accountId]) ?? false
    }

    /// A receipt's `status` (delivered or read) for outgoing message `messageId`: moves it forward only once it was sent.
    /// A message still sending (some recipients have it, the send is retried for the others) or failed keeps its status,
    /// so the retry still finds it unsent; ``markSent(_:serverTimestamp:now:_:)`` takes the receipts in afterwards.
    static func receiptArrived(_ status: MessageStatus, messageId: Int64, _ db: Database) throws {
        guard let current = try String.fetchOne(db, sql: "SELECT status FROM messages WHERE id = ?", arguments: [messageId]),
            current != MessageStatus.sending.rawValue, current != MessageStatus.failed.rawValue
        else { return }
        try setStatus(status, messageId: messageId, db)
    }

    /// Moves an outgoing message to `status` (never backwards: sent → delivered → read; `failed` always applies).
    static func setStatus(_ status: MessageStatus, messageId: Int64, reason: String? = nil, _ db: Database) throws {
        try db.execute(
            sql: """
                UPDATE messages SET status = ?, failure_reason = ? WHERE id = ? AND (
                    CASE status WHEN 'read' THEN 4 WHEN 'delivered' THEN 3 WHEN 'sent' THEN 2 ELSE 1 END
                    <= CASE ? WHEN 'read' THEN 4 WHEN 'delivered' THEN 3 WHEN 'sent' THEN 2 ELSE 1 END
                    OR ? = 'failed')
                """, arguments: [status.rawValue, reason, messageId, status.rawValue, status.rawValue])
    }

    /// Starts message `messageId`'s disappearing timer at `now` (milliseconds), if it has one that is not running yet.
    static func startTimer(messageId: Int64, now: UInt64, _ db: Database) throws {
        try startTimers(where: "id = ?", [messageId], now: now, db)
    }

    /// Starts the timers of conversation `conversationId`'s unread incoming messages at `now` (they are being read).
    static func startTimersOfUnread(conversationId: Int64, now: UInt64, _ db: Database) throws {
        try startTimers(where: "thread_id = ? AND read = 0 AND outgoing = 0", [conversationId], now: now, db)
    }

    /// The one place a timer starts: it runs from `now` for the message's own `expire_timer`, once.
    private static func startTimers(
        where condition: String, _ arguments: [any DatabaseValueConvertible], now: UInt64,
        _ db: Database
    ) throws {
        try db.execute(
            sql: "UPDATE messages SET expire_at = ? + expire_timer * 1000 WHERE \(condition) AND expire_timer > 0 AND expire_at IS NULL",
            arguments: StatementArguments([Int64(now)] + arguments))
    }

    /// A send finished: message `messageId` is sent (accepted by the server at `serverTimestamp`) and its timer starts.
    static func markSent(_ messageId: Int64, serverTimestamp: UInt64?, now: UInt64, _ db: Database) throws {
        try setStatus(.sent, messageId: messageId, db)
        // Receipts that arrived while the send was still going.
        let kinds = try String.fetchSet(db, sql: "SELECT DISTINCT kind FROM receipts WHERE message_id = ?", arguments: [messageId])
        let strongest: MessageStatus? = kinds.contains("read") ? .read : kinds.contains("delivered") ? .delivered : nil
        if let strongest { try setStatus(strongest, messageId: messageId, db) }
        try db.execute(
            sql: "UPDATE messages SET server_timestamp = ? WHERE id = ?", arguments: [serverTimestamp.map(Int64.init), messageId])
        try startTimer(messageId: messageId, now: now, db)
    }

    /// A send gave up: message `messageId` failed for `reason`, and still disappears on its timer.
    static func markFailed(_ messageId: Int64, reason: String, now: UInt64, _ db: Database) throws {
        try setStatus(.failed, messageId: messageId, reason: reason, db)
        try startTimer(messageId: messageId, now: now, db)
    }

    /// Records why message `id` could not be decrypted.
    static func setFailureReason(_ reason: String, messageId: Int64, _ db: Database) throws {
        try db.execute(sql: "UPDATE messages SET failure_reason = ? WHERE id = ?", arguments: [reason, messageId])
    }

    /// Records that message `id` arrived under sealed sender.
    static func markSealed(_ messageId: Int64, _ db: Database) throws {
        try db.execute(sql: "UPDATE messages SET sealed = 1 WHERE id = ?", arguments: [messageId])
    }

    /// The messages whose timers ran out at or before `now`: their ids and conversations.
    static func expired(now: UInt64, _ db: Database) throws -> [(id: Int64, conversationId: Int64)] {
        try Row.fetchAll(
            db, sql: "SELECT id, thread_id FROM messages WHERE expire_at IS NOT NULL AND expire_at <= ?", arguments: [Int64(now)]
        )
        .map { ($0["id"], $0["thread_id"]) }
    }

    /// When the next timer runs out (milliseconds since 1970), if any is running.
    static func nextExpiry(_ db: Database) throws -> UInt64? {
        try Int64.fetchOne(db, sql: "SELECT min(expire_at) FROM messages WHERE expire_at IS NOT NULL").map(UInt64.init)
    }

    // MARK: Reading

    /// The authors and timestamps of conversation `conversationId`'s unread incoming messages (not notices).
    static func unreadIncoming(conversationId: Int64, _ db: Database) throws -> [(author: String, timestamp: UInt64)] {
        try unreadIncoming(where: "thread_id = ?", conversationId, db)
    }

    /// The author and timestamp of message `id` if it is an incoming message still unread (not a notice).
    static func unreadIncoming(id: Int64, _ db: Database) throws -> (author: String, timestamp: UInt64)? {
        try unreadIncoming(where: "id = ?", id, db).first
    }

    /// The authors and timestamps of the unread incoming messages (not notices) that `condition` on `argument` selects.
    private static func unreadIncoming(where condition: String, _ argument: Int64, _ db: Database) throws
        -> [(author: String, timestamp: UInt64)]
    {
        try Row.fetchAll(
            db,
            sql: "SELECT author_account_id, timestamp FROM messages WHERE \(condition) AND read = 0 AND outgoing = 0 AND kind = 'message'",
            arguments: [argument]
        ).map { ($0[0], UInt64($0[1] as Int64)) }
    }

    /// Marks incoming message `id` read (and takes it out of its conversation's unread count).
    static func markRead(_ id: Int64, _ db: Database) throws {
        guard let conversationId = try Int64.fetchOne(db, sql: "SELECT thread_id FROM messages WHERE id = ? AND read = 0", arguments: [id])
        else {
            return
        }
        try db.execute(sql: "UPDATE messages SET read = 1 WHERE id = ?", arguments: [id])
        try ConversationsTable.decrementUnread(conversationId: conversationId, db)
    }

    /// Marks every message of conversation `conversationId` read (and the conversation's unread count zero).
    static func markRead(conversationId: Int64, _ db: Database) throws {
        try db.execute(sql: "UPDATE messages SET read = 1 WHERE thread_id = ?", arguments: [conversationId])
        try ConversationsTable.clearUnread(conversationId: conversationId, db)
    }

    // MARK: Pending sends

    /// The messages of conversation `conversationId` still waiting to be sent, oldest first.
    static func sending(conversationId: Int64, _ db: Database) throws -> [Int64] {
        try Int64.fetchAll(
            db, sql: "SELECT id FROM messages WHERE thread_id = ? AND status = ? ORDER BY id",
            arguments: [conversationId, MessageStatus.sending.rawValue])
    }

    /// Fails every message of conversation `conversationId` still waiting to be sent, for `reason`.
    static func failSending(conversationId: Int64, reason: String, _ db: Database) throws {
        try db.execute(
            sql: "UPDATE messages SET status = ?, failure_reason = ? WHERE thread_id = ? AND status = ?",
            arguments: [MessageStatus.failed.rawValue, reason, conversationId, MessageStatus.sending.rawValue])
    }

    /// Moves every message of conversation `source` into conversation `target`.
    static func move(from source: Int64, to target: Int64, _ db: Database) throws {
        try db.execute(sql: "UPDATE messages SET thread_id = ? WHERE thread_id = ?", arguments: [target, source])
    }

    /// What the send job of message `id` needs from its row, while it is still to be sent.
    struct Unsent {
        let timestamp: UInt64
        let body: String
        let expireTimer: UInt32
        let conversationId: Int64
        /// The other account of a 1:1 conversation (`nil` in a group).
        let recipient: String?
        let quote: Quote?
        let mentions: [Mention]
    }

    /// Message `id` with its conversation and quote, if it is still to be sent.
    static func unsent(_ id: Int64, _ db: Database) throws -> Unsent? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT m.timestamp, m.body, m.mentions, m.status, m.expire_timer, m.thread_id, t.recipient_account_id, q.author_account_id AS quote_author, q.timestamp AS quote_timestamp
                    FROM messages m JOIN threads t ON t.id = m.thread_id LEFT JOIN messages q ON q.id = m.reply_to_id WHERE m.id = ?
                    """, arguments: [id]), row["status"] as String == MessageStatus.sending.rawValue
        else { return nil }
        let quoteAuthor: String? = row["quote_author"]
        let quoteTimestamp: Int64? = row["quote_timestamp"]
        return Unsent(
            timestamp: UInt64(row["timestamp"] as Int64), body: row["body"] ?? "",
            expireTimer: (row["expire_timer"] as Int64).clampedUInt32, conversationId: row["thread_id"],
            recipient: row["recipient_account_id"],
            quote: quoteAuthor.flatMap { author in quoteTimestamp.map { Quote(authorAccountId: author, timestamp: UInt64($0)) } },
            mentions: mentions(inColumn: row["mentions"]))
    }

    /// Who wrote message `id`, when, where and how it stands: what an act on it (reaction, edit, delete) needs.
    struct ActTarget {
        let author: String
        let timestamp: UInt64
        let conversationId: Int64
        let status: MessageStatus?
        /// The other account of a 1:1 conversation (`nil` in a group).
        let peer: String?
    }

    /// Message `id` as the target of an act, if it exists.
    static func actTarget(_ id: Int64, _ db: Database) throws -> ActTarget? {
        try Row.fetchOne(
            db,
            sql: """
                SELECT m.author_account_id, m.timestamp, m.thread_id, m.status, t.recipient_account_id
                FROM messages m JOIN threads t ON t.id = m.thread_id WHERE m.id = ?
                """, arguments: [id]
        ).map { row in
            ActTarget(
                author: row[0], timestamp: UInt64(row[1] as Int64), conversationId: row[2], status: MessageStatus(rawValue: row[3]),
                peer: row[4])
        }
    }

    // MARK: Acts

    /// Whether message `id` is a message (not a notice or tombstone) in conversation `conversationId`: something to react to.
    static func isReactable(_ id: Int64, conversationId: Int64, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT deleted = 0 AND kind = 'message' AND thread_id = ? FROM messages WHERE id = ?",
            arguments: [conversationId, id]) == true
    }

    /// The message `authorAccountId` sent at `timestamp` in conversation `conversationId`: its id, and whether it is a live text message.
    static func authored(
        by authorAccountId: String, timestamp: UInt64, conversationId: Int64,
        _ db: Database
    ) throws -> (id: Int64, changeable: Bool)? {
        try Row.fetchOne(
            db, sql: "SELECT id, kind, deleted FROM messages WHERE author_account_id = ? AND timestamp = ? AND thread_id = ?",
            arguments: [authorAccountId, Int64(timestamp), conversationId]
        ).map { row in
            (row["id"], row["kind"] as String == MessageKind.message.rawValue && !(row["deleted"] as Bool))
        }
    }

    /// Message `id`'s text and when it last changed (its edit, else its sending).
    static func currentVersion(_ id: Int64, _ db: Database) throws -> (body: String?, changedAt: UInt64)? {
        try Row.fetchOne(db, sql: "SELECT body, timestamp, edited_at FROM messages WHERE id = ?", arguments: [id]).map { row in
            (row["body"], UInt64((row["edited_at"] as Int64?) ?? (row["timestamp"] as Int64)))
        }
    }

    /// Replaces message `id`'s text (and what it mentions) by an edit made at `editedAt`.
    static func replaceBody(_ id: Int64, with body: String, mentions: [Mention], editedAt: UInt64, _ db: Database) throws {
        try db.execute(
            sql: "UPDATE messages SET body = ?, mentions = ?, edited_at = ? WHERE id = ?",
            arguments: [body, try mentionsColumn(mentions), Int64(editedAt), id])
    }

    /// Makes message `id` a tombstone (deleted for everyone): its text goes.
    static func makeTombstone(_ id: Int64, _ db: Database) throws {
        try db.execute(sql: "UPDATE messages SET body = NULL, mentions = NULL, deleted = 1, edited_at = NULL WHERE id = ?", arguments: [id])
    }

    /// The timestamps outgoing message `id` went out under (its own and its last edit's); empty for an incoming message.
    static func sentTimestamps(_ id: Int64, _ db: Database) throws -> [UInt64] {
        guard
            let row = try Row.fetchOne(db, sql: "SELECT timestamp, edited_at FROM messages WHERE id = ? AND outgoing = 1", arguments: [id])
        else { return [] }
        return ([row["timestamp"] as Int64] + [row["edited_at"] as Int64?].compactMap { $0 }).map { UInt64($0) }
    }
}
