import ParleyAPI

/// Accounts and their devices: registration, lookup, credentials, removal.
///
/// Implementations are safe to call concurrently; each method is one transaction.
public protocol AccountStore: Sendable {
    /// Creates an account and its first device (id 1), in one transaction with taking one use of the invite whose
    /// token hashes to `inviteHash` (when given; unused, unexpired at `now`). Nothing changes unless it answers
    /// ``AccountCreation/created``.
    func createAccount(_ account: StoredAccount, firstDevice: StoredDevice, consumingInvite inviteHash: [UInt8]?, now: UInt64) async throws
        -> AccountCreation
    /// The account with `id`.
    func account(id: String) async throws -> StoredAccount?
    /// The account with `id` and all its devices, read together (one round trip on the hot paths).
    func accountWithDevices(id: String) async throws -> (account: StoredAccount, devices: [StoredDevice])?
    /// The account registered as `username` (compared case-insensitively).
    func account(username: String) async throws -> StoredAccount?
    /// Deletes the account's plain name (it goes by a username the server keeps only as a hash now); nothing happens
    /// for an account that has none or does not exist.
    func forgetAccountName(accountId: String) async throws
    /// Replaces the account's unidentified access key and its unrestricted-access flag; `false` when there is no such
    /// account.
    func setUnidentifiedAccess(accountId: String, key: [UInt8]?, unrestricted: Bool) async throws -> Bool
    /// All devices of an account, by id.
    func devices(accountId: String) async throws -> [StoredDevice]
    /// Removes a device with its keys and mailbox; `false` when there is none.
    func removeDevice(accountId: String, deviceId: UInt32) async throws -> Bool
    /// In one transaction: gives the device a new registration id and deletes its signed, one-time and KEM prekeys
    /// (a new installation of the device); `false` when there is no such device.
    func resetDeviceRegistration(accountId: String, deviceId: UInt32, registrationId: UInt32, passwordHash: String) async throws -> Bool
    /// Replaces the device's stored credential hash `old` with `new` (a legacy hash upgraded after a successful check);
    /// `false` when the device is gone or its credential was replaced meanwhile.
    func replaceDeviceCredentialHash(accountId: String, deviceId: UInt32, from old: String, to new: String) async throws -> Bool
}
