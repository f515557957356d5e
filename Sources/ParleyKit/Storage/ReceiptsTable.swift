internal import GRDB

/// The `receipts` table: which recipient device acknowledged or read each outgoing message, and when. Its one owner.
enum ReceiptsTable {
    /// Records a `kind` receipt ("delivered" or "read") for message `messageId` from `accountId`'s device `deviceId` at `now`.
    static func record(_ kind: String, for messageId: Int64, from accountId: String, deviceId: UInt32, now: UInt64, _ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO receipts (message_id, account_id, device_id, kind, timestamp) VALUES (?, ?, ?, ?, ?)",
            arguments: [messageId, accountId, Int64(deviceId), kind, Int64(now)])
    }

    /// Erases the receipts of message `messageId`.
    static func delete(of messageId: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM receipts WHERE message_id = ?", arguments: [messageId])
    }
}
