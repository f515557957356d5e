/// Adding devices: link codes, and the provisioning messages that carry an account to a new device.
///
/// Implementations are safe to call concurrently; each method is one transaction.
public protocol LinkingStore: Sendable {
    /// Stores a link code (its SHA-256, never the code) for `accountId`, valid until `expires`.
    func storeLinkCode(hash: [UInt8], accountId: String, expires: UInt64) async throws
    /// Whether an unexpired, unused link code has this hash.
    func isLinkCodeValid(hash: [UInt8], now: UInt64) async throws -> Bool
    /// Deletes link codes that expired before `now`; returns how many.
    func deleteLinkCodes(expiredBefore now: UInt64) async throws -> Int
    /// In one transaction: consumes the unexpired code, picks the lowest device id free (``DeviceIdAllocation``) and adds the device `makeDevice` describes.
    func linkDevice(
        codeHash: [UInt8], now: UInt64, maximumDevices: Int,
        makeDevice: @Sendable (_ accountId: String, _ deviceId: UInt32) -> StoredDevice
    ) async throws -> LinkOutcome
    /// Leaves an encrypted provisioning message at `address` until `expires`; `false` when the address already holds one.
    func storeProvisioningMessage(address: String, body: [UInt8], expires: UInt64) async throws -> Bool
    /// Removes and returns the unexpired provisioning message at `address`, if any: each is taken at most once.
    func takeProvisioningMessage(address: String, now: UInt64) async throws -> [UInt8]?
    /// Deletes provisioning messages that expired before `now`; returns how many.
    func deleteProvisioningMessages(expiredBefore now: UInt64) async throws -> Int
}
