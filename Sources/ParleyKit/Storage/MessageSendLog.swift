import Foundation
internal import GRDB

/// Recent content this device sent, per recipient device (Signal's message send log): when a device answers with a
/// retry receipt because it could not decrypt a message, the content is encrypted again on a fresh session and sent
/// once more. Bounded in age (``maximumAge``) and count (``maximumEntries``), kept in the encrypted database, and an
/// entry answers at most one retry receipt — a hostile or looping peer cannot make this device send a message twice.
enum MessageSendLog {
    /// Entries older than this are dropped (milliseconds: a day).
    static let maximumAge: UInt64 = 24 * 60 * 60 * 1000
    /// At most this many entries are kept; the oldest go first.
    static let maximumEntries = 5_000

    /// How a logged message was sent.
    enum Kind: Sendable, Equatable {
        /// 1:1 over the pairwise sessions.
        case direct
        /// To a group (its conversation id) with this device's sender key: a resend hands the sender key out again first.
        case group(conversationId: Int64)
    }

    /// One message kept for a resend.
    struct Entry: Sendable, Equatable {
        /// The encoded, padded content that was encrypted.
        let plaintext: [UInt8]
        /// How it was sent.
        let kind: Kind
    }

    /// Keeps `plaintext`, sent at `timestamp` to `devices` of `accountId`, and drops what is too old or too many.
    static func record(
        _ plaintext: [UInt8], kind: Kind, to accountId: String, devices: [UInt32], timestamp: UInt64, now: UInt64,
        _ db: Database
    ) throws {
        let groupConversationId: Int64? = if case .group(let conversationId) = kind { conversationId } else { nil }
        for device in devices {
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO message_send_log (account_id, device_id, timestamp, content, group_thread_id, sent_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """, arguments: [accountId, Int64(device), Int64(timestamp), Data(plaintext), groupConversationId, Int64(now)])
        }
        try prune(now: now, db)
    }

    /// Drops entries older than ``maximumAge`` and the oldest beyond ``maximumEntries``.
    static func prune(now: UInt64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM message_send_log WHERE sent_at < ?", arguments: [Int64(now) - Int64(maximumAge)])
        let excess = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message_send_log").map { $0 - maximumEntries } ?? 0
        guard excess > 0 else { return }
        try db.execute(
            sql: """
                DELETE FROM message_send_log WHERE (account_id, device_id, timestamp) IN (
                    SELECT account_id, device_id, timestamp FROM message_send_log ORDER BY sent_at LIMIT ?)
                """, arguments: [excess])
    }

    /// The entry for the message sent at `timestamp` to device `deviceId` of `accountId` while it has not been resent;
    /// `nil` when there is none (too old, never sent there) or it was resent already (``markResent(to:deviceId:timestamp:_:)``).
    static func unansweredEntry(to accountId: String, deviceId: UInt32, timestamp: UInt64, _ db: Database) throws -> Entry? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT content, group_thread_id FROM message_send_log WHERE account_id = ? AND device_id = ? AND timestamp = ? AND resent = 0
                    """, arguments: [accountId, Int64(deviceId), Int64(timestamp)])
        else { return nil }
        let conversationId: Int64? = row["group_thread_id"]
        return Entry(plaintext: [UInt8](row["content"] as Data), kind: conversationId.map { .group(conversationId: $0) } ?? .direct)
    }

    /// Drops what was kept of the message sent at `timestamp` for every device (its content was erased: it disappeared or
    /// was deleted for everyone).
    static func forget(timestamp: UInt64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM message_send_log WHERE timestamp = ?", arguments: [Int64(timestamp)])
    }

    /// Drops what was kept of the messages sent at `timestamps` to device `deviceId` of `accountId`: that device
    /// confirmed it decrypted them (a delivery or read receipt), so it will not ask for them again.
    static func forget(timestamps: [UInt64], to accountId: String, deviceId: UInt32, _ db: Database) throws {
        for timestamp in timestamps {
            try db.execute(
                sql: "DELETE FROM message_send_log WHERE account_id = ? AND device_id = ? AND timestamp = ?",
                arguments: [accountId, Int64(deviceId), Int64(timestamp)])
        }
    }

    /// Records that the entry was resent: it answers no further retry receipt.
    static func markResent(to accountId: String, deviceId: UInt32, timestamp: UInt64, _ db: Database) throws {
        try db.execute(
            sql: "UPDATE message_send_log SET resent = 1 WHERE account_id = ? AND device_id = ? AND timestamp = ?",
            arguments: [accountId, Int64(deviceId), Int64(timestamp)])
    }
}
