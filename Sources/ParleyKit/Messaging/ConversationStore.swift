import Foundation
import GRDB

/// Threads and messages in the client database (the seed's interactions).
enum ConversationStore {
    /// The 1:1 thread with `accountId`, if there is one.
    static func existingThread(with accountId: String, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM threads WHERE recipient_account_id = ?", arguments: [accountId])
    }

    /// The usernames this device knows for `accountIds` (those it knows), read in `db`.
    static func usernames(of accountIds: some Sequence<String>, _ db: Database) throws -> [String: String] {
        var names: [String: String] = [:]
        for accountId in accountIds {
            if let name = try String.fetchOne(db, sql: "SELECT username FROM recipients WHERE account_id = ?", arguments: [accountId]) {
                names[accountId] = name
            }
        }
        return names
    }

    /// The thread with `accountId`, created with its recipient when missing.
    static func thread(with accountId: String, username: String? = nil, _ db: Database, now: UInt64) throws -> Int64 {
        try db.execute(sql: "INSERT OR IGNORE INTO recipients (account_id, username) VALUES (?, ?)", arguments: [accountId, username])
        if let username {
            try db.execute(sql: "UPDATE recipients SET username = ? WHERE account_id = ? AND username IS NULL",
                           arguments: [username, accountId])
        }
        if let id = try existingThread(with: accountId, db) { return id }
        try db.execute(sql: "INSERT INTO threads (recipient_account_id, updated) VALUES (?, ?)", arguments: [accountId, Int64(now)])
        return db.lastInsertedRowID
    }

    /// Inserts a message; `nil` when the same (author, device, timestamp) is already stored (a duplicate delivery).
    static func insert(_ message: NewMessage, _ db: Database) throws -> Int64? {
        try db.execute(sql: """
            INSERT OR IGNORE INTO messages (thread_id, outgoing, author_account_id, author_device_id, timestamp, server_timestamp,
                                            body, status, reply_to_id, read, kind, expire_timer, expire_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [message.threadId, message.outgoing, message.authorAccountId, Int64(message.authorDeviceId),
                             Int64(message.timestamp), message.serverTimestamp.map(Int64.init), message.body,
                             message.status.rawValue, message.replyToId, message.outgoing || message.kind != .message,
                             message.kind.rawValue, Int64(message.expireTimer), message.expireAt.map(Int64.init)])
        guard db.changesCount > 0 else { return nil }
        let id = db.lastInsertedRowID
        try db.execute(sql: """
            UPDATE threads SET last_message_id = ?, updated = ?, unread_count = unread_count + ? WHERE id = ?
            """, arguments: [id, Int64(message.timestamp), message.outgoing || message.kind != .message ? 0 : 1, message.threadId])
        return id
    }

    /// Deletes the undecryptable copy of the message `authorAccountId`'s `device` sent at `timestamp`, if there is one (its resent
    /// copy decrypted), and takes it out of its thread's unread count.
    static func removeUndecryptable(author authorAccountId: String, device: UInt32, timestamp: UInt64, _ db: Database) throws {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT id, thread_id, read FROM messages WHERE author_account_id = ? AND author_device_id = ? AND timestamp = ? AND status = ?
            """, arguments: [authorAccountId, Int64(device), Int64(timestamp), MessageStatus.undecryptable.rawValue])
        else { return }
        try db.execute(sql: "DELETE FROM messages WHERE id = ?", arguments: [row["id"] as Int64])
        if !(row["read"] as Bool) {
            try db.execute(sql: "UPDATE threads SET unread_count = MAX(unread_count - 1, 0) WHERE id = ?", arguments: [row["thread_id"] as Int64])
        }
    }

    /// The local id of the message `authorAccountId` sent at `timestamp`, for quotes and receipts.
    static func messageId(author authorAccountId: String, timestamp: UInt64, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM messages WHERE author_account_id = ? AND timestamp = ?",
                           arguments: [authorAccountId, Int64(timestamp)])
    }

    /// The disappearing-message timer of thread `threadId`, seconds.
    static func expireTimer(threadId: Int64, _ db: Database) throws -> UInt32 {
        (try Int64.fetchOne(db, sql: "SELECT expire_timer FROM threads WHERE id = ?", arguments: [threadId]) ?? 0).clampedUInt32
    }

    /// Moves an outgoing message to `status` (never backwards: sent → delivered → read).
    static func setStatus(_ status: MessageStatus, messageId: Int64, reason: String? = nil, _ db: Database) throws {
        try db.execute(sql: """
            UPDATE messages SET status = ?, failure_reason = ? WHERE id = ? AND (
                CASE status WHEN 'read' THEN 4 WHEN 'delivered' THEN 3 WHEN 'sent' THEN 2 ELSE 1 END
                <= CASE ? WHEN 'read' THEN 4 WHEN 'delivered' THEN 3 WHEN 'sent' THEN 2 ELSE 1 END
                OR ? = 'failed')
            """, arguments: [status.rawValue, reason, messageId, status.rawValue, status.rawValue])
    }
}

/// A message about to be stored.
struct NewMessage {
    var threadId: Int64
    var outgoing: Bool
    var authorAccountId: String
    var authorDeviceId: UInt32
    var timestamp: UInt64
    var serverTimestamp: UInt64?
    var body: String?
    var status: MessageStatus
    var replyToId: Int64?
    /// A message, or a notice about the conversation.
    var kind: MessageKind = .message
    /// The disappearing-message timer the message was sent with, seconds.
    var expireTimer: UInt32 = 0
    /// When the message disappears (milliseconds since 1970), once its timer runs.
    var expireAt: UInt64?
}

/// What a message row is.
public enum MessageKind: String, Sendable, Codable {
    /// A message someone wrote.
    case message
    /// A notice that the conversation's disappearing-message timer changed (the row's `expireTimer`).
    case timerChange = "timer"
    /// A notice that a group was created or its title or members changed (the row's body says how).
    case groupChange = "group"
}

/// Where a message stands.
public enum MessageStatus: String, Sendable, Codable {
    /// Stored locally, send job pending.
    case sending
    /// The server accepted it for every device.
    case sent
    /// A recipient device acknowledged it.
    case delivered
    /// The recipient read it.
    case read
    /// Sending gave up; `failure_reason` says why.
    case failed
    /// An incoming message.
    case received
    /// An incoming message that could not be decrypted (kept so the failure is visible).
    case undecryptable
}
