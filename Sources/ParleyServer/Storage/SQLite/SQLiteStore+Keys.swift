import Foundation
internal import GRDB

extension SQLiteStore {
    public func storeKeys(_ upload: KeyUpload, accountId: String, deviceId: UInt32) async throws {
        try await database.write { db in
            let owner: StatementArguments = [accountId, Int64(deviceId)]
            if let key = upload.signedPreKey {
                try db.execute(
                    sql:
                        "INSERT OR REPLACE INTO signed_prekeys (account_id, device_id, key_id, public_key, signature) VALUES (?, ?, ?, ?, ?)",
                    arguments: owner + [Int64(key.keyId), Data(key.publicKey), Data(key.signature ?? [])])
            }
            for key in upload.preKeys {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO one_time_prekeys (account_id, device_id, key_id, public_key) VALUES (?, ?, ?, ?)",
                    arguments: owner + [Int64(key.keyId), Data(key.publicKey)])
            }
            for (key, lastResort) in upload.kemPreKeys.map({ ($0, false) }) + (upload.lastResortKemPreKey.map { [($0, true)] } ?? []) {
                let otherKind =
                    try Bool.fetchOne(
                        db, sql: "SELECT 1 FROM kem_prekeys WHERE account_id = ? AND device_id = ? AND key_id = ? AND last_resort = ?",
                        arguments: owner + [Int64(key.keyId), !lastResort]) ?? false
                if otherKind { throw ServerStoreError.kemKeyIdInUse(key.keyId) }
                if lastResort {
                    try db.execute(
                        sql: "DELETE FROM kem_prekeys WHERE account_id = ? AND device_id = ? AND last_resort = 1", arguments: owner)
                }
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO kem_prekeys (account_id, device_id, key_id, public_key, signature, last_resort)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """,
                    arguments: owner + [Int64(key.keyId), Data(key.publicKey), Data(key.signature ?? []), lastResort])
            }
        }
    }

    public func preKeyCounts(accountId: String, deviceId: UInt32) async throws -> (oneTime: Int, kem: Int) {
        try await database.read { db in
            let owner: StatementArguments = [accountId, Int64(deviceId)]
            let oneTime =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM one_time_prekeys WHERE account_id = ? AND device_id = ?", arguments: owner)
                ?? 0
            let kem =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM kem_prekeys WHERE account_id = ? AND device_id = ? AND last_resort = 0", arguments: owner
                ) ?? 0
            return (oneTime, kem)
        }
    }

    public func claimBundles(accountId: String, deviceIds: [UInt32]?) async throws -> [ClaimedBundle] {
        // One write transaction: SQLite serializes writers, so two concurrent claims never see the same key.
        try await database.write { db in
            var devices = try Row.fetchAll(db, sql: "SELECT * FROM devices WHERE account_id = ? ORDER BY device_id", arguments: [accountId])
                .map(Self.device(from:))
            if let deviceIds { devices = devices.filter { deviceIds.contains($0.deviceId) } }
            return try devices.compactMap { device in try Self.claim(for: device, db) }
        }
    }

    static func claim(for device: StoredDevice, _ db: Database) throws -> ClaimedBundle? {
        let owner: StatementArguments = [device.accountId, Int64(device.deviceId)]
        guard
            let signed = try Row.fetchOne(
                db, sql: "SELECT key_id, public_key, signature FROM signed_prekeys WHERE account_id = ? AND device_id = ?", arguments: owner
            )
        else { return nil }
        let preKey = try Row.fetchOne(
            db, sql: "SELECT key_id, public_key FROM one_time_prekeys WHERE account_id = ? AND device_id = ? ORDER BY key_id LIMIT 1",
            arguments: owner)
        if let preKey {
            try db.execute(
                sql: "DELETE FROM one_time_prekeys WHERE account_id = ? AND device_id = ? AND key_id = ?",
                arguments: owner + [preKey["key_id"] as Int64])
        }
        let kem = try Row.fetchOne(
            db,
            sql: """
                SELECT key_id, public_key, signature, last_resort FROM kem_prekeys WHERE account_id = ? AND device_id = ?
                ORDER BY last_resort, key_id LIMIT 1
                """, arguments: owner)
        if let kem, !(kem["last_resort"] as Bool) {
            try db.execute(
                sql: "DELETE FROM kem_prekeys WHERE account_id = ? AND device_id = ? AND key_id = ?",
                arguments: owner + [kem["key_id"] as Int64])
        }
        return ClaimedBundle(
            device: device, signedPreKey: preKeyValue(signed), preKey: preKey.map(preKeyValue), kemPreKey: kem.map(preKeyValue))
    }

    static func preKeyValue(_ row: Row) -> StoredPreKey {
        StoredPreKey(
            keyId: UInt32(truncatingIfNeeded: row["key_id"] as Int64), publicKey: [UInt8](row["public_key"] as Data),
            signature: row.hasColumn("signature") ? [UInt8](row["signature"] as Data) : nil)
    }
}
