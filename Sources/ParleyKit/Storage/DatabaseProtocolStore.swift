import Foundation
internal import GRDB
import ParleyProtocol

/// ParleyProtocol's stores over the client database. Every call runs inside the caller's transaction
/// (a ``TransactionContext``), so a decrypted message and the session state it advanced commit together.
///
/// Trust follows Signal's clients: the first identity seen for an address is trusted; a different one replaces
/// it but blocks *sending* until the user accepts the new safety number (``acceptIdentity(for:in:)``);
/// receiving is never blocked.
public final class DatabaseProtocolStore: IdentityKeyStore, PreKeyStore, SignedPreKeyStore, KyberPreKeyStore,
    SessionStore, SenderKeyStore, Sendable
{
    /// The clock identities' first sightings are recorded on (milliseconds since 1970).
    let now: @Sendable () -> UInt64

    /// A store over the database of each call's context, recording times from `now` (milliseconds since 1970); it holds no
    /// other state of its own.
    public init(now: @escaping @Sendable () -> UInt64 = { UInt64(Date().timeIntervalSince1970 * 1000) }) {
        self.now = now
    }

    // MARK: IdentityKeyStore

    public func identityKeyPair(context: StoreContext) throws -> IdentityKeyPair {
        let db = try TransactionContext.database(context)
        guard let bytes = try LocalAccountTable.identityKeyPair(db) else {
            throw ParleyError.notRegistered
        }
        return try IdentityKeyPair(bytes: bytes)
    }

    public func localRegistrationId(context: StoreContext) throws -> UInt32 {
        let db = try TransactionContext.database(context)
        guard let id = try LocalAccountTable.registrationId(db) else {
            throw ParleyError.notRegistered
        }
        return UInt32(truncatingIfNeeded: id)
    }

    public func saveIdentity(_ identity: IdentityKey, for address: ProtocolAddress, context: StoreContext) throws -> IdentityChange {
        let db = try TransactionContext.database(context)
        let key = identity.serialize()
        guard
            let stored = try Data.fetchOne(
                db, sql: "SELECT identity_key FROM trusted_identities WHERE address = ?",
                arguments: [address.name])
        else {
            try db.execute(
                sql: "INSERT INTO trusted_identities (address, identity_key, first_seen) VALUES (?, ?, ?)",
                arguments: [address.name, key, Int64(clamping: now())])
            return .newOrUnchanged
        }
        guard stored != key else { return .newOrUnchanged }
        try db.execute(
            sql: """
                UPDATE trusted_identities SET identity_key = ?, first_seen = ?, accepted = 0, verified = 0 WHERE address = ?
                """, arguments: [key, Int64(clamping: now()), address.name])
        return .replacedExisting
    }

    public func isTrustedIdentity(
        _ identity: IdentityKey, for address: ProtocolAddress, direction: Direction,
        context: StoreContext
    ) throws -> Bool {
        let db = try TransactionContext.database(context)
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT identity_key, accepted FROM trusted_identities WHERE address = ?",
                arguments: [address.name])
        else { return true }
        if direction == .receiving { return true }
        return (row["identity_key"] as Data) == identity.serialize() && (row["accepted"] as Bool)
    }

    public func identity(for address: ProtocolAddress, context: StoreContext) throws -> IdentityKey? {
        let db = try TransactionContext.database(context)
        return try Data.fetchOne(db, sql: "SELECT identity_key FROM trusted_identities WHERE address = ?", arguments: [address.name])
            .map { try IdentityKey(bytes: $0) }
    }

    /// Accepts the current identity of `name` (the user confirmed the new safety number): sending works again.
    func acceptIdentity(for name: String, in db: Database) throws {
        try db.execute(sql: "UPDATE trusted_identities SET accepted = 1 WHERE address = ?", arguments: [name])
    }

    /// Whether sending to `name` waits for the user to accept a changed identity.
    func identityNeedsAcceptance(for name: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT accepted = 0 FROM trusted_identities WHERE address = ?", arguments: [name]) ?? false
    }

    // MARK: PreKeyStore

    public func loadPreKey(id: UInt32, context: StoreContext) throws -> PreKeyRecord {
        try PreKeyRecord(bytes: try record("prekeys", id: id, context: context))
    }

    public func storePreKey(_ record: PreKeyRecord, id: UInt32, context: StoreContext) throws {
        try TransactionContext.database(context).execute(
            sql: "INSERT OR REPLACE INTO prekeys (id, record) VALUES (?, ?)", arguments: [Int64(id), record.serialize()])
    }

    public func removePreKey(id: UInt32, context: StoreContext) throws {
        try TransactionContext.database(context).execute(sql: "DELETE FROM prekeys WHERE id = ?", arguments: [Int64(id)])
    }

    // MARK: SignedPreKeyStore

    public func loadSignedPreKey(id: UInt32, context: StoreContext) throws -> SignedPreKeyRecord {
        try SignedPreKeyRecord(bytes: try record("signed_prekeys", id: id, context: context))
    }

    public func storeSignedPreKey(_ record: SignedPreKeyRecord, id: UInt32, context: StoreContext) throws {
        try TransactionContext.database(context).execute(
            sql: "INSERT OR REPLACE INTO signed_prekeys (id, record, created) VALUES (?, ?, ?)",
            // The record's own creation time (what rotation compares against), not the clock at storing: a key made
            // for time T counts as made at T.
            arguments: [Int64(id), record.serialize(), Int64(clamping: record.timestamp)])
    }

    /// When the newest signed prekey was made (milliseconds since 1970), if there is one.
    func newestSignedPreKeyCreation(in db: Database) throws -> UInt64? {
        try Int64.fetchOne(db, sql: "SELECT MAX(created) FROM signed_prekeys").map { UInt64(max($0, 0)) }
    }

    // MARK: KyberPreKeyStore

    public func loadKyberPreKey(id: UInt32, context: StoreContext) throws -> KyberPreKeyRecord {
        try KyberPreKeyRecord(bytes: try record("kyber_prekeys", id: id, context: context))
    }

    public func storeKyberPreKey(_ record: KyberPreKeyRecord, id: UInt32, context: StoreContext) throws {
        try storeKyberPreKey(record, id: id, lastResort: false, context: context)
    }

    /// Removes the last-resort KEM prekeys (a new one replaces them).
    func removeLastResortKyberPreKeys(in db: Database) throws {
        try db.execute(sql: "DELETE FROM kyber_prekeys WHERE last_resort = 1")
    }

    /// Stores a KEM prekey, marking it as the last-resort one when `lastResort`.

    public func storeKyberPreKey(_ record: KyberPreKeyRecord, id: UInt32, lastResort: Bool, context: StoreContext) throws {
        try TransactionContext.database(context).execute(
            sql: "INSERT OR REPLACE INTO kyber_prekeys (id, record, last_resort) VALUES (?, ?, ?)",
            arguments: [Int64(id), record.serialize(), lastResort])
    }

    /// One-time KEM keys are deleted once used; the last-resort key stays, marked, and the base key it was used
    /// with is remembered.
    /// - Throws: ``SignalError/invalidMessage(_:)`` when the last-resort key comes again with the same signed prekey
    ///   and base key (a replayed pre-key message); the caller's transaction then stores nothing of it.
    public func markKyberPreKeyUsed(id: UInt32, signedPreKeyId: UInt32, baseKey: PublicKey, context: StoreContext) throws {
        let db = try TransactionContext.database(context)
        let lastResort = try Bool.fetchOne(db, sql: "SELECT last_resort FROM kyber_prekeys WHERE id = ?", arguments: [Int64(id)]) ?? false
        if lastResort {
            try db.execute(
                sql: "INSERT OR IGNORE INTO kyber_base_keys_seen (kyber_prekey_id, signed_prekey_id, base_key) VALUES (?, ?, ?)",
                arguments: [Int64(id), Int64(signedPreKeyId), baseKey.serialize()])
            guard db.changesCount == 1 else {
                throw SignalError.invalidMessage("last-resort KEM prekey \(id) was used before with this base key")
            }
        }
        try db.execute(sql: "DELETE FROM kyber_prekeys WHERE id = ? AND last_resort = 0", arguments: [Int64(id)])
        try db.execute(sql: "UPDATE kyber_prekeys SET used = 1 WHERE id = ?", arguments: [Int64(id)])
    }

    // MARK: SessionStore

    public func loadSession(for address: ProtocolAddress, context: StoreContext) throws -> SessionRecord? {
        try Data.fetchOne(
            TransactionContext.database(context), sql: "SELECT record FROM sessions WHERE address = ? AND device_id = ?",
            arguments: [address.name, Int64(address.deviceId)]
        ).map { try SessionRecord(bytes: $0) }
    }

    public func loadExistingSessions(for addresses: [ProtocolAddress], context: StoreContext) throws -> [SessionRecord] {
        try addresses.compactMap { try loadSession(for: $0, context: context) }
    }

    public func storeSession(_ record: SessionRecord, for address: ProtocolAddress, context: StoreContext) throws {
        try TransactionContext.database(context).execute(
            sql: "INSERT OR REPLACE INTO sessions (address, device_id, record) VALUES (?, ?, ?)",
            arguments: [address.name, Int64(address.deviceId), record.serialize()])
    }

    /// Device ids with a session for `name`.
    func sessionDevices(for name: String, in db: Database) throws -> [UInt32] {
        try Int64.fetchAll(db, sql: "SELECT device_id FROM sessions WHERE address = ? ORDER BY device_id", arguments: [name])
            .map { UInt32(truncatingIfNeeded: $0) }
    }

    /// Deletes the sessions of `name`'s devices `deviceIds`.
    func deleteSessions(for name: String, deviceIds: [UInt32], in db: Database) throws {
        for deviceId in deviceIds {
            try db.execute(sql: "DELETE FROM sessions WHERE address = ? AND device_id = ?", arguments: [name, Int64(deviceId)])
        }
    }

    // MARK: SenderKeyStore

    public func storeSenderKey(from sender: ProtocolAddress, distributionId: UUID, record: SenderKeyRecord, context: StoreContext) throws {
        try TransactionContext.database(context).execute(
            sql: "INSERT OR REPLACE INTO sender_keys (address, device_id, distribution_id, record) VALUES (?, ?, ?, ?)",
            arguments: [sender.name, Int64(sender.deviceId), distributionId.uuidString.lowercased(), record.serialize()])
    }

    /// Deletes the sender keys `name`'s devices hold for `distributions` (each a device and a distribution id).
    static func deleteSenderKeys(from name: String, _ distributions: [(deviceId: UInt32, distributionId: UUID)], in db: Database) throws {
        for distribution in distributions {
            try db.execute(
                sql: "DELETE FROM sender_keys WHERE address = ? AND device_id = ? AND distribution_id = ?",
                arguments: [name, Int64(distribution.deviceId), distribution.distributionId.uuidString.lowercased()])
        }
    }

    public func loadSenderKey(from sender: ProtocolAddress, distributionId: UUID, context: StoreContext) throws -> SenderKeyRecord? {
        try Data.fetchOne(
            TransactionContext.database(context),
            sql: "SELECT record FROM sender_keys WHERE address = ? AND device_id = ? AND distribution_id = ?",
            arguments: [sender.name, Int64(sender.deviceId), distributionId.uuidString.lowercased()]
        ).map { try SenderKeyRecord(bytes: $0) }
    }

    private func record(_ table: String, id: UInt32, context: StoreContext) throws -> Data {
        guard
            let data = try Data.fetchOne(
                TransactionContext.database(context), sql: "SELECT record FROM \(table) WHERE id = ?",
                arguments: [Int64(id)])
        else {
            throw SignalError.invalidKeyIdentifier("no \(table) record with id \(id)")
        }
        return data
    }

}
