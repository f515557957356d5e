import Foundation
import GRDB
import ParleyAPI
import ParleyProtocol

/// The account lifecycle: registration, prekey uploads, one-time key refills and signed-prekey rotation.
public struct AccountManager: Sendable {
    let database: ParleyDatabase
    let api: ParleyServerClient
    let store: DatabaseProtocolStore

    /// Refill one-time keys when the server holds fewer than this many of either kind.
    public static let refillThreshold = 10
    /// Rotate the signed prekey after this long (milliseconds; a week, as Signal's clients do).
    public static let signedPreKeyLifetime: UInt64 = 7 * 24 * 60 * 60 * 1000

    /// A manager for the account in `database` on the server `api` talks to.
    public init(database: ParleyDatabase, api: ParleyServerClient, store: DatabaseProtocolStore) {
        self.database = database
        self.api = api
        self.store = store
    }

    /// The account in the database, if any.
    public func account() throws -> LocalAccount? { try database.read(LocalAccount.fetch) }

    /// Registers `username` with a fresh identity, then uploads a signed prekey, 100 one-time prekeys, 100 one-time
    /// KEM prekeys and a last-resort KEM prekey.
    @discardableResult
    public func register(username: String, deviceName: String? = nil) async throws -> DeviceCredentials {
        guard try account()?.credentials == nil else { throw ParleyError.invalidArgument("this database already has an account") }
        let identity = IdentityKeyPair.generate()
        let registrationId = UInt32.random(in: 1...16380)
        let password = DeviceCredentials.makePassword()
        try await database.awaitableWrite { [baseURL = api.baseURL] db in
            try db.execute(sql: "DELETE FROM local_account")
            try db.execute(sql: """
                INSERT INTO local_account (id, server_url, username, password, identity_key_pair, registration_id)
                VALUES (1, ?, ?, ?, ?, ?)
                """, arguments: [baseURL, username, password, Data(identity.serialize()), Int64(registrationId)])
        }
        let response = try await api.register(RegisterAccountRequest(
            username: username, identityKey: Data(identity.publicKey.serialize()).base64EncodedString(),
            registrationId: registrationId, password: password, deviceName: deviceName))
        try await database.awaitableWrite { db in
            try db.execute(sql: "UPDATE local_account SET account_id = ?, device_id = ? WHERE id = 1",
                           arguments: [response.accountId, Int64(response.deviceId)])
        }
        let credentials = DeviceCredentials(accountId: response.accountId, deviceId: response.deviceId, password: password)
        try await upload(oneTime: true, signed: true, lastResort: true)
        return credentials
    }

    /// Adds a new device to this (primary) account and sets up `newDatabase` as that device: issues a link code,
    /// hands the account identity to the new device, joins with the code and uploads the new device's prekeys.
    ///
    /// Both databases are on this machine, so the identity moves in memory; across machines Signal's clients carry
    /// it in an encrypted provisioning message.
    @discardableResult
    public func linkNewDevice(database newDatabase: ParleyDatabase, name: String? = nil) async throws -> DeviceCredentials {
        let (primary, identity, username) = try database.read { db -> (DeviceCredentials, Data, String) in
            guard let row = try Row.fetchOne(db, sql: "SELECT identity_key_pair, username FROM local_account WHERE id = 1") else {
                throw ParleyError.notRegistered
            }
            return (try LocalAccount.credentials(db), row["identity_key_pair"], row["username"])
        }
        let code = try await api.issueLinkCode(as: primary)
        let registrationId = UInt32.random(in: 1...16380)
        let password = DeviceCredentials.makePassword()
        let linked = try await api.link(LinkDeviceRequest(code: code.code, registrationId: registrationId, password: password, deviceName: name))
        try await newDatabase.awaitableWrite { [baseURL = api.baseURL] db in
            try db.execute(sql: "DELETE FROM local_account")
            try db.execute(
                sql: "INSERT INTO local_account (id, server_url, username, account_id, device_id, password, identity_key_pair, registration_id) VALUES (1, ?, ?, ?, ?, ?, ?, ?)",
                arguments: [baseURL, username, linked.accountId, Int64(linked.deviceId), password, identity, Int64(registrationId)])
        }
        let manager = AccountManager(database: newDatabase, api: api, store: store)
        try await manager.upload(oneTime: true, signed: true, lastResort: true)
        return DeviceCredentials(accountId: linked.accountId, deviceId: linked.deviceId, password: password)
    }

    /// Uploads another batch of one-time keys when the server is running low; returns whether it did.
    @discardableResult
    public func refillPreKeysIfNeeded() async throws -> Bool {
        let credentials = try database.read(LocalAccount.credentials)
        let counts = try await api.preKeyCount(as: credentials)
        guard counts.count < Self.refillThreshold || counts.kemCount < Self.refillThreshold else { return false }
        try await upload(oneTime: true, signed: false, lastResort: false)
        return true
    }

    /// Replaces the signed prekey when the newest one is older than ``signedPreKeyLifetime``; returns whether it did.
    @discardableResult
    public func rotateSignedPreKeyIfDue(now: UInt64 = UInt64(Date().timeIntervalSince1970 * 1000)) async throws -> Bool {
        let newest = try database.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(created) FROM signed_prekeys") } ?? 0
        guard now >= UInt64(max(newest, 0)) + Self.signedPreKeyLifetime else { return false }
        try await upload(oneTime: false, signed: true, lastResort: true, now: now)
        return true
    }

    private func upload(oneTime: Bool, signed: Bool, lastResort: Bool,
                        now: UInt64 = UInt64(Date().timeIntervalSince1970 * 1000)) async throws {
        let (credentials, request) = try await database.awaitableWrite { [store] db in
            (try LocalAccount.credentials(db),
             try PreKeyGenerator.generate(db, store: store, oneTime: oneTime, signed: signed, lastResort: lastResort, now: now))
        }
        try await api.uploadKeys(request, as: credentials)
    }
}
