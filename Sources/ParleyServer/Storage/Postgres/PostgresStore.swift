import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// ``ServerStore`` on PostgreSQL through a PostgresNIO connection pool, for several server processes sharing one database.
///
/// The store is a `Service`: ``run()`` drives the pool and must be running (in a `ServiceGroup` or a task of its own)
/// before any other call. Then ``migrate()`` brings the schema up to date and prepares the mailbox partitions:
///
/// ```swift
/// let store = try PostgresStore(url: "postgres://parley:secret@db.internal/parley", logger: logger)
/// let group = ServiceGroup(services: [store, server], logger: logger)
/// // in a task that runs beside the group:
/// try await store.migrate()
/// ```
///
/// Each method runs as one transaction, with the semantics of ``SQLiteStore``. Envelopes live in a mailbox partitioned
/// by month, and `storeEnvelopes` tells other processes about them through ``listenForMailboxChanges(_:)``.
public final class PostgresStore: ServerStore, Service {
    let client: PostgresClient
    let logger: Logger
    /// Heads this store's mailbox notifications so its own listener can skip them.
    let instanceId: String

    /// A store on the database at `url` (`postgres://user[:password]@host[:port][/database]`, also `postgresql://`,
    /// percent-encoded, port 5432 by default), connecting without TLS. Connects only once ``run()`` runs.
    ///
    /// - Parameters:
    ///   - instanceId: Names this process in mailbox notifications; unique per process, no whitespace.
    ///   - logger: Receives the pool's background messages and the store's warnings.
    /// - Throws: ``PostgresStoreError/invalidURL(_:)`` for a malformed URL, ``PostgresStoreError/invalidInstanceId(_:)``.
    public init(url: String, instanceId: String = UUID().uuidString.lowercased(), logger: Logger) throws {
        guard !instanceId.isEmpty, !instanceId.contains(where: \.isWhitespace) else {
            throw PostgresStoreError.invalidInstanceId(instanceId)
        }
        let configuration = try PostgresURL(url).configuration
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
        self.instanceId = instanceId
    }

    /// Runs the connection pool until the task is cancelled or the service group shuts down gracefully.
    public func run() async throws {
        await client.run()
    }

    public func createAccount(_ account: StoredAccount, firstDevice: StoredDevice, consumingInvite inviteHash: [UInt8]?,
                              now: UInt64) async throws -> AccountCreation {
        do {
            return try await transaction { connection in
                if let inviteHash {
                    let taken = try await count("""
                        WITH taken AS (
                            UPDATE invites SET uses_left = uses_left - 1
                            WHERE token_hash = \(ByteBuffer(bytes: inviteHash)) AND uses_left > 0 AND expires > \(Self.bigint(now))
                            RETURNING 1
                        ) SELECT count(*) FROM taken
                        """, on: connection)
                    guard taken > 0 else { return .inviteRefused }
                }
                // ON CONFLICT waits for a concurrent insert of the same name to end, so a race answers taken too.
                let inserted = try await connection.query("""
                    INSERT INTO accounts (id, username, identity_key, created)
                    VALUES (\(account.id), \(account.username), \(ByteBuffer(bytes: account.identityKey)), \(Self.bigint(firstDevice.created)))
                    ON CONFLICT ((lower(username))) DO NOTHING
                    RETURNING id
                    """, logger: logger).collect()
                // Rolls the invite's use back with the transaction.
                guard !inserted.isEmpty else { throw UsernameTaken() }
                try await insert(firstDevice, on: connection)
                return .created
            }
        } catch is UsernameTaken {
            return .usernameTaken
        }
    }

    /// Aborts an account creation's transaction (the invite's use with it).
    private struct UsernameTaken: Error {}

    public func account(id: String) async throws -> StoredAccount? {
        try await withConnection { connection in
            try await accounts("\(unescaped: Self.accountColumns) WHERE id = \(id)", on: connection).first
        }
    }

    public func account(username: String) async throws -> StoredAccount? {
        try await withConnection { connection in
            try await accounts("\(unescaped: Self.accountColumns) WHERE lower(username) = lower(\(username))", on: connection).first
        }
    }

    public func accountWithDevices(id: String) async throws -> (account: StoredAccount, devices: [StoredDevice])? {
        try await withConnection { connection in
            guard let account = try await accounts("\(unescaped: Self.accountColumns) WHERE id = \(id)", on: connection).first
            else { return nil }
            return (account, try await devices("\(unescaped: Self.deviceColumns) WHERE account_id = \(id) ORDER BY device_id", on: connection))
        }
    }

    public func devices(accountId: String) async throws -> [StoredDevice] {
        try await withConnection { connection in
            try await devices("\(unescaped: Self.deviceColumns) WHERE account_id = \(accountId) ORDER BY device_id", on: connection)
        }
    }

    public func storeKeys(_ upload: KeyUpload, accountId: String, deviceId: UInt32) async throws {
        let device = Int64(deviceId)
        try await transaction { connection in
            // Serializes uploads for the device, so the check that a KEM key id is not the other kind's stays true.
            try await perform(
                "SELECT 1 FROM devices WHERE account_id = \(accountId) AND device_id = \(device) FOR NO KEY UPDATE", on: connection)
            if let key = upload.signedPreKey {
                try await perform("""
                    INSERT INTO signed_prekeys (account_id, device_id, key_id, public_key, signature)
                    VALUES (\(accountId), \(device), \(Int64(key.keyId)), \(ByteBuffer(bytes: key.publicKey)),
                            \(ByteBuffer(bytes: key.signature ?? [])))
                    ON CONFLICT (account_id, device_id) DO UPDATE
                    SET key_id = excluded.key_id, public_key = excluded.public_key, signature = excluded.signature
                    """, on: connection)
            }
            for key in upload.preKeys {
                try await perform("""
                    INSERT INTO one_time_prekeys (account_id, device_id, key_id, public_key)
                    VALUES (\(accountId), \(device), \(Int64(key.keyId)), \(ByteBuffer(bytes: key.publicKey)))
                    ON CONFLICT (account_id, device_id, key_id) DO UPDATE SET public_key = excluded.public_key
                    """, on: connection)
            }
            let kemKeys = upload.kemPreKeys.map { ($0, false) } + (upload.lastResortKemPreKey.map { [($0, true)] } ?? [])
            for (key, lastResort) in kemKeys {
                try await storeKemKey(key, lastResort: lastResort, accountId: accountId, deviceId: device, on: connection)
            }
        }
    }

    public func preKeyCounts(accountId: String, deviceId: UInt32) async throws -> (oneTime: Int, kem: Int) {
        let device = Int64(deviceId)
        return try await withConnection { connection in
            let oneTime = try await count(
                "SELECT count(*) FROM one_time_prekeys WHERE account_id = \(accountId) AND device_id = \(device)", on: connection)
            let kem = try await count(
                "SELECT count(*) FROM kem_prekeys WHERE account_id = \(accountId) AND device_id = \(device) AND NOT last_resort",
                on: connection)
            return (oneTime: oneTime, kem: kem)
        }
    }

    public func claimBundles(accountId: String, deviceIds: [UInt32]?) async throws -> [ClaimedBundle] {
        try await transaction { connection in
            let all = try await devices(
                "\(unescaped: Self.deviceColumns) WHERE account_id = \(accountId) ORDER BY device_id", on: connection)
            var bundles: [ClaimedBundle] = []
            for device in all where deviceIds?.contains(device.deviceId) ?? true {
                if let bundle = try await claim(for: device, on: connection) { bundles.append(bundle) }
            }
            return bundles
        }
    }

    public func storeLinkCode(hash: [UInt8], accountId: String, expires: UInt64) async throws {
        try await withConnection { connection in
            try await perform("""
                INSERT INTO link_codes (code_hash, account_id, expires) VALUES (\(ByteBuffer(bytes: hash)), \(accountId), \(Self.bigint(expires)))
                """, on: connection)
        }
    }

    public func isLinkCodeValid(hash: [UInt8], now: UInt64) async throws -> Bool {
        try await withConnection { connection in
            try await exists(
                "SELECT EXISTS (SELECT 1 FROM link_codes WHERE code_hash = \(ByteBuffer(bytes: hash)) AND expires > \(Self.bigint(now)))",
                on: connection)
        }
    }

    public func deleteLinkCodes(expiredBefore now: UInt64) async throws -> Int {
        try await withConnection { connection in
            try await count(
                "WITH deleted AS (DELETE FROM link_codes WHERE expires <= \(Self.bigint(now)) RETURNING 1) SELECT count(*) FROM deleted",
                on: connection)
        }
    }

    public func storeProvisioningMessage(address: String, body: [UInt8], expires: UInt64) async throws -> Bool {
        try await withConnection { connection in
            try await count("""
                WITH inserted AS (
                    INSERT INTO provisioning_messages (address, body, expires)
                    VALUES (\(address), \(ByteBuffer(bytes: body)), \(Self.bigint(expires)))
                    ON CONFLICT (address) DO NOTHING RETURNING 1
                ) SELECT count(*) FROM inserted
                """, on: connection) > 0
        }
    }

    public func takeProvisioningMessage(address: String, now: UInt64) async throws -> [UInt8]? {
        try await withConnection { connection in
            // DELETE … RETURNING is atomic: two concurrent takers never both get the message.
            let rows = try await connection.query("""
                DELETE FROM provisioning_messages WHERE address = \(address) AND expires > \(Self.bigint(now)) RETURNING body
                """, logger: logger)
            for try await body in rows.decode(ByteBuffer.self) { return Array(buffer: body) }
            return nil
        }
    }

    public func deleteProvisioningMessages(expiredBefore now: UInt64) async throws -> Int {
        try await withConnection { connection in
            try await count(
                "WITH deleted AS (DELETE FROM provisioning_messages WHERE expires <= \(Self.bigint(now)) RETURNING 1) SELECT count(*) FROM deleted",
                on: connection)
        }
    }

    public func linkDevice(
        codeHash: [UInt8], now: UInt64, maximumDevices: Int,
        makeDevice: @Sendable (_ accountId: String, _ deviceId: UInt32) -> StoredDevice
    ) async throws -> LinkOutcome {
        let code = ByteBuffer(bytes: codeHash)
        return try await transaction { connection in
            // The code's row lock makes a second use of the same code wait, then find it gone.
            var accountIds: [String] = []
            let codes = try await connection.query(
                "SELECT account_id FROM link_codes WHERE code_hash = \(code) AND expires > \(Self.bigint(now)) FOR UPDATE", logger: logger)
            for try await accountId in codes.decode(String.self) { accountIds.append(accountId) }
            guard let accountId = accountIds.first else { return .invalidCode }
            // The account's row lock serializes links to one account, so two never pick the same device id.
            try await perform("SELECT 1 FROM accounts WHERE id = \(accountId) FOR UPDATE", on: connection)
            var deviceIds: [Int64] = []
            let rows = try await connection.query("SELECT device_id FROM devices WHERE account_id = \(accountId)", logger: logger)
            for try await deviceId in rows.decode(Int64.self) { deviceIds.append(deviceId) }
            guard deviceIds.count < maximumDevices else { return .tooManyDevices }
            try await perform("DELETE FROM link_codes WHERE code_hash = \(code)", on: connection)
            let deviceId = UInt32(truncatingIfNeeded: (deviceIds.max() ?? 0) + 1)
            try await insert(makeDevice(accountId, deviceId), on: connection)
            return .linked(accountId: accountId, deviceId: deviceId)
        }
    }

    public func removeDevice(accountId: String, deviceId: UInt32) async throws -> Bool {
        try await withConnection { connection in
            // Foreign keys cascade to the device's prekeys and mailbox.
            try await count("""
                WITH deleted AS (DELETE FROM devices WHERE account_id = \(accountId) AND device_id = \(Int64(deviceId)) RETURNING 1)
                SELECT count(*) FROM deleted
                """, on: connection) > 0
        }
    }

    public func resetDeviceRegistration(accountId: String, deviceId: UInt32, registrationId: UInt32, passwordHash: String) async throws -> Bool {
        let device = Int64(deviceId)
        return try await transaction { connection in
            let updated = try await count("""
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
        try await transaction { connection in
            try await count("""
                WITH updated AS (
                    UPDATE devices SET password_hash = \(new)
                    WHERE account_id = \(accountId) AND device_id = \(Int64(deviceId)) AND password_hash = \(old)
                    RETURNING 1
                ) SELECT count(*) FROM updated
                """, on: connection) > 0
        }
    }

    // MARK: Helpers shared with the other PostgresStore files

    /// Runs `body` in a transaction on one pooled connection; rethrows the failure itself rather than PostgresNIO's wrapper,
    /// so callers see ``ServerStoreError`` and the server's `PSQLError`.
    func transaction<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        do {
            return try await client.withTransaction(logger: logger) { connection in try await body(connection) }
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error.commitError ?? error.beginError ?? error
        }
    }

    /// Runs `body` on one pooled connection, outside a transaction.
    func withConnection<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        try await client.withConnection { connection in try await body(connection) }
    }

    /// Runs a statement, reading its result to the end so that an error raised while it executes is thrown here.
    func perform(_ query: PostgresQuery, on connection: PostgresConnection) async throws {
        for try await _ in try await connection.query(query, logger: logger) {}
    }

    /// The single `bigint` a `SELECT count(*) ...` returns.
    func count(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> Int {
        var result: Int64?
        for try await value in try await connection.query(query, logger: logger).decode(Int64.self) { result = value }
        guard let result else { throw PostgresStoreError.missingRow("a count") }
        return Int(result)
    }

    /// The single `boolean` a `SELECT EXISTS (...)` returns.
    func exists(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> Bool {
        var result: Bool?
        for try await value in try await connection.query(query, logger: logger).decode(Bool.self) { result = value }
        guard let result else { throw PostgresStoreError.missingRow("an existence check") }
        return result
    }

    /// Timestamps are `UInt64` in Swift and `BIGINT` in the database; none the server makes comes near `Int64.max`.
    static func bigint(_ milliseconds: UInt64) -> Int64 { Int64(clamping: milliseconds) }

    // MARK: Private

    private static let accountColumns = "SELECT id, username, identity_key, disabled FROM accounts"
    private static let deviceColumns = "SELECT account_id, device_id, registration_id, name, password_hash, created FROM devices"

    private func accounts(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> [StoredAccount] {
        var accounts: [StoredAccount] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (id, username, identityKey, disabled) in rows.decode((String, String, ByteBuffer, Bool).self) {
            accounts.append(StoredAccount(id: id, username: username, identityKey: Array(identityKey.readableBytesView), disabled: disabled))
        }
        return accounts
    }

    private func devices(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> [StoredDevice] {
        var devices: [StoredDevice] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (accountId, deviceId, registrationId, name, passwordHash, created)
            in rows.decode((String, Int64, Int64, String?, String, Int64).self) {
            devices.append(StoredDevice(
                accountId: accountId, deviceId: UInt32(truncatingIfNeeded: deviceId),
                registrationId: UInt32(truncatingIfNeeded: registrationId), name: name, passwordHash: passwordHash,
                created: UInt64(clamping: created)))
        }
        return devices
    }

    private func insert(_ device: StoredDevice, on connection: PostgresConnection) async throws {
        try await perform("""
            INSERT INTO devices (account_id, device_id, registration_id, name, password_hash, created)
            VALUES (\(device.accountId), \(Int64(device.deviceId)), \(Int64(device.registrationId)), \(device.name),
                    \(device.passwordHash), \(Self.bigint(device.created)))
            """, on: connection)
    }

    private func storeKemKey(
        _ key: StoredPreKey, lastResort: Bool, accountId: String, deviceId: Int64, on connection: PostgresConnection
    ) async throws {
        let otherKind = try await exists("""
            SELECT EXISTS (SELECT 1 FROM kem_prekeys WHERE account_id = \(accountId) AND device_id = \(deviceId)
                           AND key_id = \(Int64(key.keyId)) AND last_resort = \(!lastResort))
            """, on: connection)
        if otherKind { throw ServerStoreError.kemKeyIdInUse(key.keyId) }
        if lastResort {
            try await perform(
                "DELETE FROM kem_prekeys WHERE account_id = \(accountId) AND device_id = \(deviceId) AND last_resort", on: connection)
        }
        try await perform("""
            INSERT INTO kem_prekeys (account_id, device_id, key_id, public_key, signature, last_resort)
            VALUES (\(accountId), \(deviceId), \(Int64(key.keyId)), \(ByteBuffer(bytes: key.publicKey)),
                    \(ByteBuffer(bytes: key.signature ?? [])), \(lastResort))
            ON CONFLICT (account_id, device_id, key_id) DO UPDATE
            SET public_key = excluded.public_key, signature = excluded.signature, last_resort = excluded.last_resort
            """, on: connection)
    }

    /// The device's bundle, its one-time keys deleted; `nil` without a signed prekey.
    private func claim(for device: StoredDevice, on connection: PostgresConnection) async throws -> ClaimedBundle? {
        let accountId = device.accountId
        let deviceId = Int64(device.deviceId)
        guard let signedPreKey = try await preKeys("""
            SELECT key_id, public_key, signature FROM signed_prekeys WHERE account_id = \(accountId) AND device_id = \(deviceId)
            """, signed: true, on: connection).first
        else { return nil }
        // SKIP LOCKED: a concurrent claim takes the next key instead of waiting for this one and then finding it gone.
        let preKey = try await preKeys("""
            DELETE FROM one_time_prekeys WHERE account_id = \(accountId) AND device_id = \(deviceId) AND key_id = (
                SELECT key_id FROM one_time_prekeys WHERE account_id = \(accountId) AND device_id = \(deviceId)
                ORDER BY key_id LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING key_id, public_key
            """, signed: false, on: connection).first
        var kemPreKey = try await preKeys("""
            DELETE FROM kem_prekeys WHERE account_id = \(accountId) AND device_id = \(deviceId) AND key_id = (
                SELECT key_id FROM kem_prekeys WHERE account_id = \(accountId) AND device_id = \(deviceId) AND NOT last_resort
                ORDER BY key_id LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING key_id, public_key, signature
            """, signed: true, on: connection).first
        if kemPreKey == nil {
            kemPreKey = try await preKeys("""
                SELECT key_id, public_key, signature FROM kem_prekeys
                WHERE account_id = \(accountId) AND device_id = \(deviceId) AND last_resort ORDER BY key_id LIMIT 1
                """, signed: true, on: connection).first
        }
        return ClaimedBundle(device: device, signedPreKey: signedPreKey, preKey: preKey, kemPreKey: kemPreKey)
    }

    /// Rows of `key_id, public_key` and, when `signed`, `signature`.
    private func preKeys(_ query: PostgresQuery, signed: Bool, on connection: PostgresConnection) async throws -> [StoredPreKey] {
        var keys: [StoredPreKey] = []
        let rows = try await connection.query(query, logger: logger)
        if signed {
            for try await (keyId, publicKey, signature) in rows.decode((Int64, ByteBuffer, ByteBuffer).self) {
                keys.append(StoredPreKey(
                    keyId: UInt32(truncatingIfNeeded: keyId), publicKey: Array(publicKey.readableBytesView),
                    signature: Array(signature.readableBytesView)))
            }
        } else {
            for try await (keyId, publicKey) in rows.decode((Int64, ByteBuffer).self) {
                keys.append(StoredPreKey(keyId: UInt32(truncatingIfNeeded: keyId), publicKey: Array(publicKey.readableBytesView), signature: nil))
            }
        }
        return keys
    }
}
