internal import GRDB

/// The `sender_key_shared` table: which devices of which members hold this device's sender key of a group's
/// distribution. Its one owner.
enum SenderKeySharesTable {
    /// The devices of `member` known to hold `distributionId` of group `conversationId`.
    static func holders(conversationId: Int64, distributionId: String, member: String, _ db: Database) throws -> Set<UInt32> {
        Set(
            try Int64.fetchAll(
                db, sql: "SELECT device_id FROM sender_key_shared WHERE thread_id = ? AND distribution_id = ? AND account_id = ?",
                arguments: [conversationId, distributionId, member]
            ).map { UInt32(truncatingIfNeeded: $0) })
    }

    /// Records that `deviceIds` of `member` hold `distributionId` of group `conversationId`.
    static func record(conversationId: Int64, distributionId: String, member: String, deviceIds: [UInt32], _ db: Database) throws {
        for deviceId in deviceIds {
            try db.execute(
                sql: "INSERT OR IGNORE INTO sender_key_shared (thread_id, distribution_id, account_id, device_id) VALUES (?, ?, ?, ?)",
                arguments: [conversationId, distributionId, member, Int64(deviceId)])
        }
    }

    /// Forgets what `member`'s devices hold in group `conversationId`.
    static func forget(conversationId: Int64, member: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM sender_key_shared WHERE thread_id = ? AND account_id = ?", arguments: [conversationId, member])
    }

    /// Forgets what `deviceIds` of `member` hold in every group: the devices are gone, and a device the server later
    /// gives one of their ids is a new one that holds nothing.
    static func forgetEverywhere(member: String, deviceIds: [UInt32], _ db: Database) throws {
        for deviceId in deviceIds {
            try db.execute(
                sql: "DELETE FROM sender_key_shared WHERE account_id = ? AND device_id = ?", arguments: [member, Int64(deviceId)])
        }
    }

    /// Forgets every holder in group `conversationId` (its distribution starts over).
    static func forgetAll(conversationId: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM sender_key_shared WHERE thread_id = ?", arguments: [conversationId])
    }
}
