import Foundation
import ParleyAPI

/// The account's profile key: made at registration, carried to linked devices, shared with contacts in every message
/// this account sends, and the source of the access key the server checks for sealed-sender messages.
extension AccountManager {
    /// This account's profile key; `nil` before registration (or on a device linked by a primary that had none).
    public func profileKey() throws -> ProfileKey? {
        try database.read(Self.storedProfileKey)
    }

    /// Replaces the profile key with a new one and gives the server its access key. Contacts learn the new key with
    /// the next message this account sends them; anyone who only knew the old one (someone blocked, or removed from a
    /// group) can no longer send to this account sealed and must show the server their credentials. This account's
    /// other devices adopt the new key from the copies of its next sent message. Only the primary device rotates.
    /// Returns the new key.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` on a linked device.
    @discardableResult
    public func rotateProfileKey() async throws -> ProfileKey {
        let credentials = try database.read(LocalAccount.credentials)
        guard credentials.deviceId == 1 else { throw ParleyError.invalidArgument("only the primary device (1) rotates the profile key") }
        let key = ProfileKey.generate()
        try await api.setAccountAttributes(
            AccountAttributesRequest(unidentifiedAccessKey: key.accessKey.base64EncodedString()), as: credentials)
        try await database.awaitableWrite { db in try Self.keepProfileKey(key, db) }
        return key
    }

    /// Makes a profile key for an account registered before profile keys existed (on its primary device; a linked
    /// device learns the key from the primary's messages). Returns whether it made one.
    @discardableResult
    public func makeProfileKeyIfMissing() async throws -> Bool {
        let (credentials, existing) = try database.read { db in (try LocalAccount.credentials(db), try Self.storedProfileKey(db)) }
        guard existing == nil, credentials.deviceId == 1 else { return false }
        try await rotateProfileKey()
        return true
    }

    /// The profile key kept in `db`, if any.
    static func storedProfileKey(_ db: StorageTransaction) throws -> ProfileKey? {
        try LocalAccountTable.profileKey(db).map { try ProfileKey(bytes: $0) }
    }

    /// Keeps `key` as this account's profile key (a rotation here, or one another device of the account made).
    static func keepProfileKey(_ key: ProfileKey, _ db: StorageTransaction) throws {
        try LocalAccountTable.setProfileKey(key.bytes, db)
    }
}
