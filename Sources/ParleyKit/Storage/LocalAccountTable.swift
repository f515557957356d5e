import Foundation
internal import GRDB

/// The `local_account` table: this database's one account (row 1) — server, username, credentials, identity key pair,
/// registration id, profile key and the next prekey ids. Its one owner.
enum LocalAccountTable {
    /// The account, if any.
    static func account(_ db: Database) throws -> LocalAccount? {
        try Row.fetchOne(db, sql: "SELECT * FROM local_account WHERE id = 1").map { row in
            let accountId: String? = row["account_id"]
            let deviceId: Int64? = row["device_id"]
            return LocalAccount(
                serverURL: row["server_url"], username: row["username"],
                credentials: accountId.flatMap { id in
                    deviceId.map { DeviceCredentials(accountId: id, deviceId: UInt32($0), password: row["password"]) }
                },
                registrationId: UInt32(truncatingIfNeeded: row["registration_id"] as Int64))
        }
    }

    /// The server the account talks to, if there is an account.
    static func serverURL(_ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT server_url FROM local_account WHERE id = 1")
    }

    /// The account's username, if there is an account.
    static func username(_ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT username FROM local_account WHERE id = 1")
    }

    /// The account's identity key pair (serialized), if there is an account.
    static func identityKeyPair(_ db: Database) throws -> Data? {
        try Data.fetchOne(db, sql: "SELECT identity_key_pair FROM local_account WHERE id = 1")
    }

    /// This device's registration id, if there is an account.
    static func registrationId(_ db: Database) throws -> UInt32? {
        try Int64.fetchOne(db, sql: "SELECT registration_id FROM local_account WHERE id = 1").map { UInt32(truncatingIfNeeded: $0) }
    }

    /// The account's profile key (its bytes), if it has one.
    static func profileKey(_ db: Database) throws -> Data? {
        try Data.fetchOne(db, sql: "SELECT profile_key FROM local_account WHERE id = 1")
    }

    /// Sets the account's profile key.
    static func setProfileKey(_ bytes: Data, _ db: Database) throws {
        try db.execute(sql: "UPDATE local_account SET profile_key = ? WHERE id = 1", arguments: [bytes])
    }

    /// Replaces whatever account the database held by a new one; `accountId` and `deviceId` are `nil` until the server
    /// accepted a registration (``setRegistered(accountId:deviceId:_:)``).
    static func replace(
        serverURL: String, username: String, accountId: String?, deviceId: UInt32?, password: String,
        identityKeyPair: Data, registrationId: UInt32, profileKey: Data?, _ db: Database
    ) throws {
        try db.execute(sql: "DELETE FROM local_account")
        try db.execute(
            sql: """
                INSERT INTO local_account (id, server_url, username, account_id, device_id, password, identity_key_pair, registration_id, profile_key)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                serverURL, username, accountId, deviceId.map { Int64($0) }, password, identityKeyPair, Int64(registrationId),
                profileKey,
            ])
    }

    /// Records the account id and device id the server gave the registration.
    /// Renames the account as this device shows it (to its username, once confirmed).
    static func setName(_ name: String, _ db: Database) throws {
        try db.execute(sql: "UPDATE local_account SET username = ? WHERE id = 1", arguments: [name])
    }

    static func setRegistered(accountId: String, deviceId: UInt32, _ db: Database) throws {
        try db.execute(sql: "UPDATE local_account SET account_id = ?, device_id = ? WHERE id = 1", arguments: [accountId, Int64(deviceId)])
    }

    /// The next one-time, signed and KEM prekey ids (1, 1, 1 before any were made).
    static func nextPreKeyIds(_ db: Database) throws -> (oneTime: UInt32, signed: UInt32, kem: UInt32) {
        try Row.fetchOne(db, sql: "SELECT next_prekey_id, next_signed_prekey_id, next_kyber_prekey_id FROM local_account WHERE id = 1")
            .map { (UInt32($0[0] as Int64), UInt32($0[1] as Int64), UInt32($0[2] as Int64)) } ?? (1, 1, 1)
    }

    /// Records the next one-time, signed and KEM prekey ids.
    static func setNextPreKeyIds(_ ids: (oneTime: UInt32, signed: UInt32, kem: UInt32), _ db: Database) throws {
        try db.execute(
            sql: "UPDATE local_account SET next_prekey_id = ?, next_signed_prekey_id = ?, next_kyber_prekey_id = ? WHERE id = 1",
            arguments: [Int64(ids.oneTime), Int64(ids.signed), Int64(ids.kem)])
    }
}
