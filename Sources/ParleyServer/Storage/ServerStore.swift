import Foundation

/// An account as stored.
public struct StoredAccount: Sendable, Equatable {
    /// Lowercase UUID.
    public let id: String
    /// As registered (uniqueness is case-insensitive).
    public let username: String
    /// The serialized identity key (33 bytes).
    public let identityKey: [UInt8]
}

/// A device as stored.
public struct StoredDevice: Sendable, Equatable {
    public let accountId: String
    public let deviceId: UInt32
    public let registrationId: UInt32
    public let name: String?
    /// Argon2id hash string of the device credential.
    public let passwordHash: String
    /// Milliseconds since 1970.
    public let created: UInt64
}

/// A stored prekey: id, serialized public key and, for signed kinds, the signature.
public struct StoredPreKey: Sendable, Equatable {
    public let keyId: UInt32
    public let publicKey: [UInt8]
    public let signature: [UInt8]?
}

/// Prekeys whose signatures the server has checked, ready to store for one device.
public struct KeyUpload: Sendable {
    public var signedPreKey: StoredPreKey?
    public var preKeys: [StoredPreKey] = []
    public var kemPreKeys: [StoredPreKey] = []
    public var lastResortKemPreKey: StoredPreKey?
}

/// The keys handed out for one device; the one-time keys in it were removed from storage in the same transaction.
public struct ClaimedBundle: Sendable {
    public let device: StoredDevice
    public let signedPreKey: StoredPreKey
    public let preKey: StoredPreKey?
    public let kemPreKey: StoredPreKey?
}

/// Everything the server persists. Implementations are safe to call concurrently; each method is one transaction.
public protocol ServerStore: Sendable {
    /// Creates an account and its first device (id 1). Returns `false` when the username is taken (any case).
    func createAccount(_ account: StoredAccount, firstDevice: StoredDevice) async throws -> Bool
    /// The account with `id`.
    func account(id: String) async throws -> StoredAccount?
    /// One device.
    func device(accountId: String, deviceId: UInt32) async throws -> StoredDevice?
    /// All devices of an account, by id.
    func devices(accountId: String) async throws -> [StoredDevice]
    /// Stores checked prekeys: signed and last-resort keys replace, one-time keys are added (same id replaces).
    func storeKeys(_ upload: KeyUpload, accountId: String, deviceId: UInt32) async throws
    /// One-time prekeys left: Curve25519 and KEM (last resort excluded).
    func preKeyCounts(accountId: String, deviceId: UInt32) async throws -> (oneTime: Int, kem: Int)
    /// Claims bundles for `deviceIds` (all devices when `nil`): each device's signed prekey, one one-time prekey
    /// (removed), one one-time KEM prekey (removed) or else the last-resort one. Devices without a signed prekey are left out.
    func claimBundles(accountId: String, deviceIds: [UInt32]?) async throws -> [ClaimedBundle]
}
