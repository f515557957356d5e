import Foundation
internal import GRDB

extension SQLiteStore {
    public func createAccount(
        _ account: StoredAccount, firstDevice: StoredDevice, consumingInvite inviteHash: [UInt8]?,
        now: UInt64
    ) async throws -> AccountCreation {
        try await database.write { db in
            // Checks first, so a refusal changes nothing.
            if let name = account.username,
                try Bool.fetchOne(db, sql: "SELECT 1 FROM accounts WHERE username = ? COLLATE NOCASE", arguments: [name]) == true
            {
                return .usernameTaken
            }
            if let inviteHash {
                try db.execute(
                    sql: "UPDATE invites SET uses_left = uses_left - 1 WHERE token_hash = ? AND uses_left > 0 AND expires > ?",
                    arguments: [Data(inviteHash), Int64(clamping: now)])
                guard db.changesCount > 0 else { return .inviteRefused }
            }
            try db.execute(
                sql: """
                    INSERT INTO accounts (id, username, identity_key, created, unidentified_access_key, unrestricted_unidentified_access)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    account.id, account.username, Data(account.identityKey), Int64(firstDevice.created),
                    account.unidentifiedAccessKey.map { Data($0) }, account.unrestrictedUnidentifiedAccess,
                ])
            try Self.insert(firstDevice, db)
            return .created
        }
    }

    public func account(id: String) async throws -> StoredAccount? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "\(Self.accountColumns) WHERE id = ?", arguments: [id]).map(Self.account(from:))
        }
    }

    public func account(username: String) async throws -> StoredAccount? {
        try await database.read { db in
            try Row.fetchOne(
                db, sql: "\(Self.accountColumns) WHERE username = ? COLLATE NOCASE",
                arguments: [username]
            ).map(Self.account(from:))
        }
    }

    public func accountWithDevices(id: String) async throws -> (account: StoredAccount, devices: [StoredDevice])? {
        try await accounts.value(id) {
            try await readAccountWithDevices(id: id)
        }
    }

    private func readAccountWithDevices(id: String) async throws -> (account: StoredAccount, devices: [StoredDevice])? {
        try await database.read { db in
            guard
                let account = try Row.fetchOne(
                    db.cachedStatement(sql: "\(Self.accountColumns) WHERE id = ?"), arguments: [id]
                ).map(Self.account(from:))
            else { return nil }
            let devices = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM devices WHERE account_id = ? ORDER BY device_id"),
                arguments: [id]
            ).map(Self.device(from:))
            return (account, devices)
        }
    }

    public func forgetAccountName(accountId: String) async throws {
        defer { accounts.invalidate(accountId) }
        try await database.write { db in
            try db.execute(sql: "UPDATE accounts SET username = NULL WHERE id = ?", arguments: [accountId])
        }
    }

    public func setUnidentifiedAccess(accountId: String, key: [UInt8]?, unrestricted: Bool) async throws -> Bool {
        defer { accounts.invalidate(accountId) }
        return try await database.write { db in
            try db.execute(
                sql: "UPDATE accounts SET unidentified_access_key = ?, unrestricted_unidentified_access = ? WHERE id = ?",
                arguments: [key.map { Data($0) }, unrestricted, accountId])
            return db.changesCount > 0
        }
    }

    public func devices(accountId: String) async throws -> [StoredDevice] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM devices WHERE account_id = ? ORDER BY device_id", arguments: [accountId])
                .map(Self.device(from:))
        }
    }

    public func removeDevice(accountId: String, deviceId: UInt32) async throws -> Bool {
        defer { accounts.invalidate(accountId) }
        return try await database.write { db in
            // Foreign keys cascade to the device's prekeys, mailbox and push target. Its socket rows and idempotency
            // records go too: the next device linked may be given its id, and must not look online or share its keys.
            try db.execute(sql: "DELETE FROM devices WHERE account_id = ? AND device_id = ?", arguments: [accountId, Int64(deviceId)])
            guard db.changesCount > 0 else { return false }
            try db.execute(
                sql: "DELETE FROM device_sockets WHERE account_id = ? AND device_id = ?", arguments: [accountId, Int64(deviceId)])
            try db.execute(
                sql: "DELETE FROM idempotency_records WHERE scope = ?",
                arguments: [IdempotencyRecord.deviceScope(accountId: accountId, deviceId: deviceId)])
            return true
        }
    }

    public func resetDeviceRegistration(accountId: String, deviceId: UInt32, registrationId: UInt32, passwordHash: String) async throws
        -> Bool
    {
        defer { accounts.invalidate(accountId) }
        return try await database.write { db in
            let owner: StatementArguments = [accountId, Int64(deviceId)]
            try db.execute(
                sql: "UPDATE devices SET registration_id = ?, password_hash = ? WHERE account_id = ? AND device_id = ?",
                arguments: [Int64(registrationId), passwordHash, accountId, Int64(deviceId)])
            guard db.changesCount > 0 else { return false }
            try db.execute(sql: "DELETE FROM signed_prekeys WHERE account_id = ? AND device_id = ?", arguments: owner)
            try db.execute(sql: "DELETE FROM one_time_prekeys WHERE account_id = ? AND device_id = ?", arguments: owner)
            try db.execute(sql: "DELETE FROM kem_prekeys WHERE account_id = ? AND device_id = ?", arguments: owner)
            return true
        }
    }

    public func replaceDeviceCredentialHash(accountId: String, deviceId: UInt32, from old: String, to new: String) async throws -> Bool {
        defer { accounts.invalidate(accountId) }
        return try await database.write { db in
            try db.execute(
                sql: "UPDATE devices SET password_hash = ? WHERE account_id = ? AND device_id = ? AND password_hash = ?",
                arguments: [new, accountId, Int64(deviceId), old])
            return db.changesCount > 0
        }
    }

    static func insert(_ device: StoredDevice, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO devices (account_id, device_id, registration_id, name, password_hash, created)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                device.accountId, Int64(device.deviceId), Int64(device.registrationId), device.name,
                device.passwordHash, Int64(device.created),
            ])
    }

    static let accountColumns =
        "SELECT id, username, identity_key, disabled, unidentified_access_key, unrestricted_unidentified_access FROM accounts"

    static func account(from row: Row) -> StoredAccount {
        StoredAccount(
            id: row["id"], username: row["username"], identityKey: [UInt8](row["identity_key"] as Data),
            disabled: (row["disabled"] as Int64) != 0,
            unidentifiedAccessKey: (row["unidentified_access_key"] as Data?).map { [UInt8]($0) },
            unrestrictedUnidentifiedAccess: (row["unrestricted_unidentified_access"] as Int64) != 0)
    }

    static func device(from row: Row) -> StoredDevice {
        StoredDevice(
            accountId: row["account_id"], deviceId: UInt32(truncatingIfNeeded: row["device_id"] as Int64),
            registrationId: UInt32(truncatingIfNeeded: row["registration_id"] as Int64), name: row["name"],
            passwordHash: row["password_hash"], created: UInt64(row["created"] as Int64))
    }
}
