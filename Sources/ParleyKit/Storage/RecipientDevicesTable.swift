internal import GRDB

/// The `recipient_devices` table: the devices of each known account this device has sessions with, and their
/// registration ids. Its one owner.
enum RecipientDevicesTable {
    /// The known devices of `accountId` with their registration ids, by device id.
    static func devices(of accountId: String, _ db: Database) throws -> [(deviceId: UInt32, registrationId: UInt32)] {
        try Row.fetchAll(
            db, sql: "SELECT device_id, registration_id FROM recipient_devices WHERE account_id = ? ORDER BY device_id",
            arguments: [accountId]
        )
        .map { (UInt32(truncatingIfNeeded: $0[0] as Int64), UInt32(truncatingIfNeeded: $0[1] as Int64)) }
    }

    /// The registration id recorded for device `deviceId` of `accountId`; `nil` for a device not known.
    static func registrationId(device deviceId: UInt32, of accountId: String, _ db: Database) throws -> UInt32? {
        try Int64.fetchOne(
            db, sql: "SELECT registration_id FROM recipient_devices WHERE account_id = ? AND device_id = ?",
            arguments: [accountId, Int64(deviceId)]
        ).map { UInt32(truncatingIfNeeded: $0) }
    }

    /// Records device `deviceId` of `accountId` with its registration id.
    static func record(_ deviceId: UInt32, of accountId: String, registrationId: UInt32, _ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO recipient_devices (account_id, device_id, registration_id) VALUES (?, ?, ?)",
            arguments: [accountId, Int64(deviceId), Int64(registrationId)])
    }

    /// Forgets device `deviceId` of `accountId`.
    static func remove(_ deviceId: UInt32, of accountId: String, _ db: Database) throws {
        try db.execute(
            sql: "DELETE FROM recipient_devices WHERE account_id = ? AND device_id = ?", arguments: [accountId, Int64(deviceId)])
    }
}
