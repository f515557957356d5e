import Foundation
import GRDB

/// ``ServerStore`` on SQLite through GRDB: one file, WAL mode, schema changes by versioned migrations.
public final class SQLiteStore: ServerStore {
    let database: DatabasePool

    /// Opens (creating if needed) the database at `path` and migrates it.
    ///
    /// With ``SQLiteDurability/processCrash`` (the default) a commit is in the operating system's hands when it
    /// returns: killing the server loses nothing, a power cut may lose the last commits (never corrupting the file).
    /// ``SQLiteDurability/powerLoss`` also waits for the disk (an fsync per commit).
    public init(path: String, durability: SQLiteDurability = .processCrash) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: durability == .powerLoss ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
            // 32 MiB of page cache per connection (SQLite's default is 2 MiB): a 10-million-hash bank's index and the
            // mailbox's hot pages stay in memory.
            try db.execute(sql: "PRAGMA cache_size = -32768")
        }
        database = try DatabasePool(path: path, configuration: configuration)
        try SQLiteSchema.migrator.migrate(database)
    }

    public func createAccount(_ account: StoredAccount, firstDevice: StoredDevice, consumingInvite inviteHash: [UInt8]?,
                              now: UInt64) async throws -> AccountCreation {
        try await database.write { db in
            // Checks first, so a refusal changes nothing.
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM accounts WHERE username = ? COLLATE NOCASE", arguments: [account.username]) == true {
                return .usernameTaken
            }
            if let inviteHash {
                try db.execute(sql: "UPDATE invites SET uses_left = uses_left - 1 WHERE token_hash = ? AND uses_left > 0 AND expires > ?",
                               arguments: [Data(inviteHash), Int64(clamping: now)])
                guard db.changesCount > 0 else { return .inviteRefused }
            }
            try db.execute(
                sql: "INSERT INTO accounts (id, username, identity_key, created) VALUES (?, ?, ?, ?)",
                arguments: [account.id, account.username, Data(account.identityKey), Int64(firstDevice.created)])
            try Self.insert(firstDevice, db)
            return .created
        }
    }

    public func account(id: String) async throws -> StoredAccount? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT id, username, identity_key, disabled FROM accounts WHERE id = ?", arguments: [id]).map(Self.account(from:))
        }
    }

    public func account(username: String) async throws -> StoredAccount? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT id, username, identity_key, disabled FROM accounts WHERE username = ? COLLATE NOCASE",
                             arguments: [username]).map(Self.account(from:))
        }
    }

    public func accountWithDevices(id: String) async throws -> (account: StoredAccount, devices: [StoredDevice])? {
        try await database.read { db in
            guard let account = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT id, username, identity_key, disabled FROM accounts WHERE id = ?"), arguments: [id]
            ).map(Self.account(from:))
            else { return nil }
            let devices = try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM devices WHERE account_id = ? ORDER BY device_id"),
                                           arguments: [id]).map(Self.device(from:))
            return (account, devices)
        }
    }

    public func devices(accountId: String) async throws -> [StoredDevice] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM devices WHERE account_id = ? ORDER BY device_id", arguments: [accountId])
                .map(Self.device(from:))
        }
    }

    public func storeKeys(_ upload: KeyUpload, accountId: String, deviceId: UInt32) async throws {
        try await database.write { db in
            let owner: StatementArguments = [accountId, Int64(deviceId)]
            if let key = upload.signedPreKey {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO signed_prekeys (account_id, device_id, key_id, public_key, signature) VALUES (?, ?, ?, ?, ?)",
                    arguments: owner + [Int64(key.keyId), Data(key.publicKey), Data(key.signature ?? [])])
            }
            for key in upload.preKeys {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO one_time_prekeys (account_id, device_id, key_id, public_key) VALUES (?, ?, ?, ?)",
                    arguments: owner + [Int64(key.keyId), Data(key.publicKey)])
            }
            for (key, lastResort) in upload.kemPreKeys.map({ ($0, false) }) + (upload.lastResortKemPreKey.map { [($0, true)] } ?? []) {
                let otherKind = try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM kem_prekeys WHERE account_id = ? AND device_id = ? AND key_id = ? AND last_resort = ?",
                    arguments: owner + [Int64(key.keyId), !lastResort]) ?? false
                if otherKind { throw ServerStoreError.kemKeyIdInUse(key.keyId) }
                if lastResort {
                    try db.execute(sql: "DELETE FROM kem_prekeys WHERE account_id = ? AND device_id = ? AND last_resort = 1", arguments: owner)
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
            let oneTime = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM one_time_prekeys WHERE account_id = ? AND device_id = ?", arguments: owner) ?? 0
            let kem = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM kem_prekeys WHERE account_id = ? AND device_id = ? AND last_resort = 0", arguments: owner) ?? 0
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

    public func storeLinkCode(hash: [UInt8], accountId: String, expires: UInt64) async throws {
        try await database.write { db in
            try db.execute(sql: "INSERT INTO link_codes (code_hash, account_id, expires) VALUES (?, ?, ?)",
                           arguments: [Data(hash), accountId, Int64(expires)])
        }
    }

    public func isLinkCodeValid(hash: [UInt8], now: UInt64) async throws -> Bool {
        try await database.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM link_codes WHERE code_hash = ? AND expires > ?", arguments: [Data(hash), Int64(now)]) ?? false
        }
    }

    public func deleteLinkCodes(expiredBefore now: UInt64) async throws -> Int {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM link_codes WHERE expires <= ?", arguments: [Int64(now)])
            return db.changesCount
        }
    }

    public func linkDevice(
        codeHash: [UInt8], now: UInt64, maximumDevices: Int,
        makeDevice: @Sendable (_ accountId: String, _ deviceId: UInt32) -> StoredDevice
    ) async throws -> LinkOutcome {
        try await database.write { db in
            guard let accountId = try String.fetchOne(
                db, sql: "SELECT account_id FROM link_codes WHERE code_hash = ? AND expires > ?", arguments: [Data(codeHash), Int64(now)])
            else { return .invalidCode }
            let ids = try Int64.fetchAll(db, sql: "SELECT device_id FROM devices WHERE account_id = ?", arguments: [accountId])
            guard ids.count < maximumDevices else { return .tooManyDevices }
            try db.execute(sql: "DELETE FROM link_codes WHERE code_hash = ?", arguments: [Data(codeHash)])
            let deviceId = UInt32((ids.max() ?? 0) + 1)
            try Self.insert(makeDevice(accountId, deviceId), db)
            return .linked(accountId: accountId, deviceId: deviceId)
        }
    }

    public func storeProvisioningMessage(address: String, body: [UInt8], expires: UInt64) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "INSERT INTO provisioning_messages (address, body, expires) VALUES (?, ?, ?) ON CONFLICT (address) DO NOTHING",
                           arguments: [address, Data(body), Int64(expires)])
            return db.changesCount > 0
        }
    }

    public func takeProvisioningMessage(address: String, now: UInt64) async throws -> [UInt8]? {
        // Polls mostly find nothing: answer those with a read, never queueing behind message writes.
        let present = try await database.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM provisioning_messages WHERE address = ?", arguments: [address]) ?? false
        }
        guard present else { return nil }
        return try await database.write { db in
            guard let body = try Data.fetchOne(
                db, sql: "SELECT body FROM provisioning_messages WHERE address = ? AND expires > ?", arguments: [address, Int64(now)])
            else { return nil }
            try db.execute(sql: "DELETE FROM provisioning_messages WHERE address = ?", arguments: [address])
            return Array(body)
        }
    }

    public func deleteProvisioningMessages(expiredBefore now: UInt64) async throws -> Int {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM provisioning_messages WHERE expires <= ?", arguments: [Int64(now)])
            return db.changesCount
        }
    }

    public func removeDevice(accountId: String, deviceId: UInt32) async throws -> Bool {
        try await database.write { db in
            // Foreign keys cascade to the device's prekeys and mailbox.
            try db.execute(sql: "DELETE FROM devices WHERE account_id = ? AND device_id = ?", arguments: [accountId, Int64(deviceId)])
            return db.changesCount > 0
        }
    }

    public func resetDeviceRegistration(accountId: String, deviceId: UInt32, registrationId: UInt32, passwordHash: String) async throws -> Bool {
        try await database.write { db in
            let owner: StatementArguments = [accountId, Int64(deviceId)]
            try db.execute(sql: "UPDATE devices SET registration_id = ?, password_hash = ? WHERE account_id = ? AND device_id = ?",
                           arguments: [Int64(registrationId), passwordHash, accountId, Int64(deviceId)])
            guard db.changesCount > 0 else { return false }
            try db.execute(sql: "DELETE FROM signed_prekeys WHERE account_id = ? AND device_id = ?", arguments: owner)
            try db.execute(sql: "DELETE FROM one_time_prekeys WHERE account_id = ? AND device_id = ?", arguments: owner)
            try db.execute(sql: "DELETE FROM kem_prekeys WHERE account_id = ? AND device_id = ?", arguments: owner)
            return true
        }
    }

    public func replaceDeviceCredentialHash(accountId: String, deviceId: UInt32, from old: String, to new: String) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "UPDATE devices SET password_hash = ? WHERE account_id = ? AND device_id = ? AND password_hash = ?",
                           arguments: [new, accountId, Int64(deviceId), old])
            return db.changesCount > 0
        }
    }

    public func storeEnvelopes(_ envelopes: [StoredEnvelope]) async throws {
        try await database.write { db in
            let insert = try db.cachedStatement(sql: """
                INSERT INTO mailbox (guid, account_id, device_id, source_account_id, source_device_id, type, content,
                                     timestamp, server_timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for envelope in envelopes {
                try insert.execute(
                    arguments: [envelope.guid, envelope.accountId, Int64(envelope.deviceId), envelope.sourceAccountId,
                                Int64(envelope.sourceDeviceId), Int64(envelope.type), Data(envelope.content),
                                Int64(envelope.timestamp), Int64(envelope.serverTimestamp)])
            }
        }
    }

    public func pendingEnvelopes(accountId: String, deviceId: UInt32, notBefore: UInt64, limit: Int) async throws -> [StoredEnvelope] {
        try await database.read { db in
            try Row.fetchAll(
                db, sql: """
                    SELECT * FROM mailbox WHERE account_id = ? AND device_id = ? AND server_timestamp >= ?
                    ORDER BY server_timestamp, rowid LIMIT ?
                    """, arguments: [accountId, Int64(deviceId), Int64(notBefore), limit]
            ).map { row in
                StoredEnvelope(
                    guid: row["guid"], accountId: row["account_id"], deviceId: UInt32(truncatingIfNeeded: row["device_id"] as Int64),
                    sourceAccountId: row["source_account_id"],
                    sourceDeviceId: UInt32(truncatingIfNeeded: row["source_device_id"] as Int64),
                    type: UInt8(truncatingIfNeeded: row["type"] as Int64), content: [UInt8](row["content"] as Data),
                    timestamp: UInt64(row["timestamp"] as Int64), serverTimestamp: UInt64(row["server_timestamp"] as Int64))
            }
        }
    }

    public func deleteEnvelope(guid: String, accountId: String, deviceId: UInt32) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM mailbox WHERE guid = ? AND account_id = ? AND device_id = ?",
                           arguments: [guid, accountId, Int64(deviceId)])
            return db.changesCount > 0
        }
    }

    public func deleteEnvelopes(guids: [String], accountId: String, deviceId: UInt32) async throws -> Int {
        guard !guids.isEmpty else { return 0 }
        return try await database.write { db in
            var deleted = 0
            let delete = try db.cachedStatement(sql: "DELETE FROM mailbox WHERE guid = ? AND account_id = ? AND device_id = ?")
            for guid in guids {
                try delete.execute(arguments: [guid, accountId, Int64(deviceId)])
                deleted += db.changesCount
            }
            return deleted
        }
    }

    public func deleteEnvelopes(olderThan serverTime: UInt64) async throws -> Int {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM mailbox WHERE server_timestamp < ?", arguments: [Int64(serverTime)])
            return db.changesCount
        }
    }

    public func mailboxDepth() async throws -> Int {
        try await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM mailbox") ?? 0 }
    }

    private static func claim(for device: StoredDevice, _ db: Database) throws -> ClaimedBundle? {
        let owner: StatementArguments = [device.accountId, Int64(device.deviceId)]
        guard let signed = try Row.fetchOne(
            db, sql: "SELECT key_id, public_key, signature FROM signed_prekeys WHERE account_id = ? AND device_id = ?", arguments: owner)
        else { return nil }
        let preKey = try Row.fetchOne(
            db, sql: "SELECT key_id, public_key FROM one_time_prekeys WHERE account_id = ? AND device_id = ? ORDER BY key_id LIMIT 1",
            arguments: owner)
        if let preKey {
            try db.execute(sql: "DELETE FROM one_time_prekeys WHERE account_id = ? AND device_id = ? AND key_id = ?",
                           arguments: owner + [preKey["key_id"] as Int64])
        }
        let kem = try Row.fetchOne(
            db, sql: """
                SELECT key_id, public_key, signature, last_resort FROM kem_prekeys WHERE account_id = ? AND device_id = ?
                ORDER BY last_resort, key_id LIMIT 1
                """, arguments: owner)
        if let kem, !(kem["last_resort"] as Bool) {
            try db.execute(sql: "DELETE FROM kem_prekeys WHERE account_id = ? AND device_id = ? AND key_id = ?",
                           arguments: owner + [kem["key_id"] as Int64])
        }
        return ClaimedBundle(
            device: device, signedPreKey: preKeyValue(signed), preKey: preKey.map(preKeyValue), kemPreKey: kem.map(preKeyValue))
    }

    private static func preKeyValue(_ row: Row) -> StoredPreKey {
        StoredPreKey(
            keyId: UInt32(truncatingIfNeeded: row["key_id"] as Int64), publicKey: [UInt8](row["public_key"] as Data),
            signature: row.hasColumn("signature") ? [UInt8](row["signature"] as Data) : nil)
    }

    private static func insert(_ device: StoredDevice, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO devices (account_id, device_id, registration_id, name, password_hash, created)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [device.accountId, Int64(device.deviceId), Int64(device.registrationId), device.name,
                        device.passwordHash, Int64(device.created)])
    }

    private static func account(from row: Row) -> StoredAccount {
        StoredAccount(id: row["id"], username: row["username"], identityKey: [UInt8](row["identity_key"] as Data),
                      disabled: (row["disabled"] as Int64) != 0)
    }

    private static func device(from row: Row) -> StoredDevice {
        StoredDevice(
            accountId: row["account_id"], deviceId: UInt32(truncatingIfNeeded: row["device_id"] as Int64),
            registrationId: UInt32(truncatingIfNeeded: row["registration_id"] as Int64), name: row["name"],
            passwordHash: row["password_hash"], created: UInt64(row["created"] as Int64))
    }
}
