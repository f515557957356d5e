/// The key directory: each device's signed, one-time and KEM prekeys.
///
/// Implementations are safe to call concurrently; each method is one transaction.
public protocol KeyStore: Sendable {
    /// Stores checked prekeys: signed and last-resort keys replace, one-time keys are added (same id replaces).
    func storeKeys(_ upload: KeyUpload, accountId: String, deviceId: UInt32) async throws
    /// One-time prekeys left: Curve25519 and KEM (last resort excluded).
    func preKeyCounts(accountId: String, deviceId: UInt32) async throws -> (oneTime: Int, kem: Int)
    /// Claims bundles for `deviceIds` (all devices when `nil`): each device's signed prekey, one one-time prekey
    /// (removed), one one-time KEM prekey (removed) or else the last-resort one. Devices without a signed prekey are left out.
    func claimBundles(accountId: String, deviceIds: [UInt32]?) async throws -> [ClaimedBundle]
}
