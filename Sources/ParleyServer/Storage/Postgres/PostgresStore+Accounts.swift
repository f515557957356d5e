import Foundation
import PostgresNIO

extension PostgresStore {
    /// Aborts an account creation's transaction (the invite's use with it).
    struct UsernameTaken: Error {}

    public func createAccount(
        _ account: StoredAccount, firstDevice: StoredDevice, consumingInvite inviteHash: [UInt8]?,
        now: UInt64
    ) async throws -> AccountCreation {
        do {
            return try await transaction { connection in
                if let inviteHash {
                    let taken = try await count(
                        """
                        WITH taken AS (
                            UPDATE invites SET uses_left = uses_left - 1
                            WHERE token_hash = \(ByteBuffer(bytes: inviteHash)) AND uses_left > 0 AND expires > \(Self.bigint(now))
                            RETURNING 1
                        ) SELECT count(*) FROM taken
                        """, on: connection)
                    guard taken > 0 else { return .inviteRefused }
                }
                // ON CONFLICT waits for a concurrent insert of the same name to end, so a race answers taken too.
                let inserted = try await connection.query(
                    """
                    INSERT INTO accounts (id, username, identity_key, created, unidentified_access_key, unrestricted_unidentified_access)
                    VALUES (\(account.id), \(account.username), \(ByteBuffer(bytes: account.identityKey)), \(Self.bigint(firstDevice.created)),
                            \(account.unidentifiedAccessKey.map { ByteBuffer(bytes: $0) }), \(account.unrestrictedUnidentifiedAccess))
                    ON CONFLICT ((lower(username))) DO NOTHING
                    RETURNING id
                    """, logger: logger
                ).collect()
                // Rolls the invite's use back with the transaction.
                guard !inserted.isEmpty else { throw UsernameTaken() }
                try await insert(firstDevice, on: connection)
                return .created
            }
        } catch is UsernameTaken {
            return .usernameTaken
        }
    }

    public func account(id: String) async throws -> StoredAccount? {
        // PostgreSQL refuses NUL in text, so no stored account has one: the lookup would fail, not miss.
        guard !id.utf8.contains(0) else { return nil }
        return try await withConnection { connection in
            try await accounts("\(unescaped: Self.accountColumns) WHERE id = \(id)", on: connection).first
        }
    }

    public func account(username: String) async throws -> StoredAccount? {
        guard !username.utf8.contains(0) else { return nil }
        return try await withConnection { connection in
            try await accounts("\(unescaped: Self.accountColumns) WHERE lower(username) = lower(\(username))", on: connection).first
        }
    }

    public func accountWithDevices(id: String) async throws -> (account: StoredAccount, devices: [StoredDevice])? {
        guard !id.utf8.contains(0) else { return nil }
        return try await accounts.value(id) {
            try await readAccountWithDevices(id: id)
        }
    }

    private func readAccountWithDevices(id: String) async throws -> (account: StoredAccount, devices: [StoredDevice])? {
        try await withConnection { connection in
            guard let account = try await accounts("\(unescaped: Self.accountColumns) WHERE id = \(id)", on: connection).first
            else { return nil }
            return (
                account, try await devices("\(unescaped: Self.deviceColumns) WHERE account_id = \(id) ORDER BY device_id", on: connection)
            )
        }
    }

    public func setUnidentifiedAccess(accountId: String, key: [UInt8]?, unrestricted: Bool) async throws -> Bool {
        defer { accountChanged(accountId) }
        return try await transaction { connection in
            try await count(
                """
                WITH updated AS (
                    UPDATE accounts SET unidentified_access_key = \(key.map { ByteBuffer(bytes: $0) }),
                        unrestricted_unidentified_access = \(unrestricted)
                    WHERE id = \(accountId) RETURNING 1
                ) SELECT count(*) FROM updated
                """, on: connection) > 0
        }
    }

    public func forgetAccountName(accountId: String) async throws {
        defer { accountChanged(accountId) }
        try await transaction { connection in
            _ = try await connection.query("UPDATE accounts SET username = NULL WHERE id = \(accountId)", logger: logger).collect()
        }
    }

    public func devices(accountId: String) async throws -> [StoredDevice] {
        try await withConnection { connection in
            try await devices("\(unescaped: Self.deviceColumns) WHERE account_id = \(accountId) ORDER BY device_id", on: connection)
        }
    }

    public func removeDevice(accountId: String, deviceId: UInt32) async throws -> Bool {
        defer { accountChanged(accountId) }
        return try await transaction { connection in
            // Foreign keys cascade to the device's prekeys, mailbox and push target. Its socket rows and idempotency
            // records go too: the next device linked may be given its id, and must not look online or share its keys.
            let removed =
                try await count(
                    """
                    WITH deleted AS (DELETE FROM devices WHERE account_id = \(accountId) AND device_id = \(Int64(deviceId)) RETURNING 1)
                    SELECT count(*) FROM deleted
                    """, on: connection) > 0
            guard removed else { return false }
            try await perform(
                "DELETE FROM device_sockets WHERE account_id = \(accountId) AND device_id = \(Int64(deviceId))", on: connection)
            try await perform(
                "DELETE FROM idempotency_records WHERE scope = \(IdempotencyRecord.deviceScope(accountId: accountId, deviceId: deviceId))",
                on: connection)
            return true
        }
    }

    public func resetDeviceRegistration(accountId: String, deviceId: UInt32, registrationId: UInt32, passwordHash: String) async throws
        -> Bool
    {
        let device = Int64(deviceId)
        defer { accountChanged(accountId) }
        return try await transaction { connection in
            let updated = try await count(
                """
                WITH updated AS (
                    UPDATE devices SET registration_id = \(Int64(registrationId)), password_hash = \(passwordHash)
                    WHERE account_id = \(accountId) AND device_id = \(device)
                    RETURNING 1
                ) SELECT count(*) FROM updated
                """, on: connection)
            guard updated > 0 else { return false }
            try await perform("DELETE FROM signed_prekeys WHERE account_id = \(accountId) AND device_id = \(device)", on: connection)
            try await perform("DELETE FROM one_time_prekeys WHERE account_id = \(accountId) AND device_id = \(device)", on: connection)
            try await perform("DELETE FROM kem_prekeys WHERE account_id = \(accountId) AND device_id = \(device)", on: connection)
            return true
        }
    }

    public func replaceDeviceCredentialHash(accountId: String, deviceId: UInt32, from old: String, to new: String) async throws -> Bool {
        defer { accountChanged(accountId) }
        return try await transaction { connection in
            try await count(
                """
                WITH updated AS (
                    UPDATE devices SET password_hash = \(new)
                    WHERE account_id = \(accountId) AND device_id = \(Int64(deviceId)) AND password_hash = \(old)
                    RETURNING 1
                ) SELECT count(*) FROM updated
                """, on: connection) > 0
        }
    }

    static let accountColumns =
        "SELECT id, username, identity_key, disabled, unidentified_access_key, unrestricted_unidentified_access FROM accounts"
    static let deviceColumns = "SELECT account_id, device_id, registration_id, name, password_hash, created FROM devices"

    func accounts(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> [StoredAccount] {
        var accounts: [StoredAccount] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (id, username, identityKey, disabled, accessKey, unrestricted)
            in rows.decode((String, String?, ByteBuffer, Bool, ByteBuffer?, Bool).self)
        {
            accounts.append(
                StoredAccount(
                    id: id, username: username, identityKey: Array(identityKey.readableBytesView), disabled: disabled,
                    unidentifiedAccessKey: accessKey.map { Array($0.readableBytesView) }, unrestrictedUnidentifiedAccess: unrestricted))
        }
        return accounts
    }

    func devices(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> [StoredDevice] {
        var devices: [StoredDevice] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (accountId, deviceId, registrationId, name, passwordHash, created)
            in rows.decode((String, Int64, Int64, String?, String, Int64).self)
        {
            devices.append(
                StoredDevice(
                    accountId: accountId, deviceId: UInt32(truncatingIfNeeded: deviceId),
                    registrationId: UInt32(truncatingIfNeeded: registrationId), name: name, passwordHash: passwordHash,
                    created: UInt64(clamping: created)))
        }
        return devices
    }

    func insert(_ device: StoredDevice, on connection: PostgresConnection) async throws {
        try await perform(
            """
            INSERT INTO devices (account_id, device_id, registration_id, name, password_hash, created)
            VALUES (\(device.accountId), \(Int64(device.deviceId)), \(Int64(device.registrationId)), \(device.name),
                    \(device.passwordHash), \(Self.bigint(device.created)))
            """, on: connection)
    }
}
