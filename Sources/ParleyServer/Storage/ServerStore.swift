import ParleyAPI
import Foundation

/// An account as stored.
public struct StoredAccount: Sendable, Equatable {
    /// Lowercase UUID.
    public let id: String
    /// As registered (uniqueness is case-insensitive).
    public let username: String
    /// The serialized identity key (33 bytes).
    public let identityKey: [UInt8]
    /// Disabled by the operator: none of its devices can authenticate.
    public let disabled: Bool

    /// An account.
    public init(id: String, username: String, identityKey: [UInt8], disabled: Bool = false) {
        self.id = id
        self.username = username
        self.identityKey = identityKey
        self.disabled = disabled
    }
}

/// A device as stored.
public struct StoredDevice: Sendable, Equatable {
    /// The account it belongs to.
    public let accountId: String
    /// The device id within the account.
    public let deviceId: UInt32
    /// The device's registration id.
    public let registrationId: UInt32
    /// The name the device gave, if any.
    public let name: String?
    /// The stored hash of the device credential (`hmac-sha256$salt$mac`, or a legacy Argon2id string).
    public let passwordHash: String
    /// Milliseconds since 1970.
    public let created: UInt64
}

/// A stored prekey: id, serialized public key and, for signed kinds, the signature.
public struct StoredPreKey: Sendable, Equatable {
    /// The key id.
    public let keyId: UInt32
    /// The serialized public key.
    public let publicKey: [UInt8]
    /// The identity key's signature, for signed kinds.
    public let signature: [UInt8]?
}

/// Prekeys whose signatures the server has checked, ready to store for one device.
public struct KeyUpload: Sendable {
    /// Replaces the device's signed prekey.
    public var signedPreKey: StoredPreKey?
    /// Added one-time prekeys.
    public var preKeys: [StoredPreKey] = []
    /// Added one-time KEM prekeys.
    public var kemPreKeys: [StoredPreKey] = []
    /// Replaces the device's last-resort KEM prekey.
    public var lastResortKemPreKey: StoredPreKey?
}

/// The keys handed out for one device; the one-time keys in it were removed from storage in the same transaction.
public struct ClaimedBundle: Sendable {
    /// The device.
    public let device: StoredDevice
    /// Its signed prekey.
    public let signedPreKey: StoredPreKey
    /// The claimed one-time prekey, if any were left.
    public let preKey: StoredPreKey?
    /// The claimed one-time KEM prekey, else the last-resort one, if the device has any.
    public let kemPreKey: StoredPreKey?
}

/// A message in one device's mailbox.
public struct StoredEnvelope: Sendable, Equatable {
    /// Server-assigned id (lowercase UUID).
    public let guid: String
    /// The recipient account.
    public let accountId: String
    /// The recipient device.
    public let deviceId: UInt32
    /// The sender account.
    public let sourceAccountId: String
    /// The sender device.
    public let sourceDeviceId: UInt32
    /// `CiphertextMessage.MessageType` raw value.
    public let type: UInt8
    /// The ciphertext as the sender made it.
    public let content: [UInt8]
    /// The sender's timestamp (milliseconds since 1970).
    public let timestamp: UInt64
    /// When the server accepted it (milliseconds since 1970).
    public let serverTimestamp: UInt64

    /// An envelope.
    public init(guid: String, accountId: String, deviceId: UInt32, sourceAccountId: String, sourceDeviceId: UInt32,
                type: UInt8, content: [UInt8], timestamp: UInt64, serverTimestamp: UInt64) {
        self.guid = guid
        self.accountId = accountId
        self.deviceId = deviceId
        self.sourceAccountId = sourceAccountId
        self.sourceDeviceId = sourceDeviceId
        self.type = type
        self.content = content
        self.timestamp = timestamp
        self.serverTimestamp = serverTimestamp
    }
}

/// The outcome of ``ServerStore/linkDevice(codeHash:now:maximumDevices:makeDevice:)``.
public enum LinkOutcome: Sendable, Equatable {
    /// The device was added with this id.
    case linked(accountId: String, deviceId: UInt32)
    /// No unexpired, unused code matches.
    case invalidCode
    /// The account already has the maximum number of devices.
    case tooManyDevices
}

/// Everything the server persists. Implementations are safe to call concurrently; each method is one transaction.
public protocol ServerStore: Sendable {
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
    /// All devices of an account, by id.
    func devices(accountId: String) async throws -> [StoredDevice]
    /// Stores checked prekeys: signed and last-resort keys replace, one-time keys are added (same id replaces).
    func storeKeys(_ upload: KeyUpload, accountId: String, deviceId: UInt32) async throws
    /// One-time prekeys left: Curve25519 and KEM (last resort excluded).
    func preKeyCounts(accountId: String, deviceId: UInt32) async throws -> (oneTime: Int, kem: Int)
    /// Claims bundles for `deviceIds` (all devices when `nil`): each device's signed prekey, one one-time prekey
    /// (removed), one one-time KEM prekey (removed) or else the last-resort one. Devices without a signed prekey are left out.
    func claimBundles(accountId: String, deviceIds: [UInt32]?) async throws -> [ClaimedBundle]
    /// Stores a link code (its SHA-256, never the code) for `accountId`, valid until `expires`.
    func storeLinkCode(hash: [UInt8], accountId: String, expires: UInt64) async throws
    /// Whether an unexpired, unused link code has this hash.
    func isLinkCodeValid(hash: [UInt8], now: UInt64) async throws -> Bool
    /// Deletes link codes that expired before `now`; returns how many.
    func deleteLinkCodes(expiredBefore now: UInt64) async throws -> Int
    /// In one transaction: consumes the unexpired code, picks the next device id and adds the device `makeDevice` describes.
    func linkDevice(codeHash: [UInt8], now: UInt64, maximumDevices: Int,
                    makeDevice: @Sendable (_ accountId: String, _ deviceId: UInt32) -> StoredDevice) async throws -> LinkOutcome
    /// Leaves an encrypted provisioning message at `address` until `expires`; `false` when the address already holds one.
    func storeProvisioningMessage(address: String, body: [UInt8], expires: UInt64) async throws -> Bool
    /// Removes and returns the unexpired provisioning message at `address`, if any: each is taken at most once.
    func takeProvisioningMessage(address: String, now: UInt64) async throws -> [UInt8]?
    /// Deletes provisioning messages that expired before `now`; returns how many.
    func deleteProvisioningMessages(expiredBefore now: UInt64) async throws -> Int
    /// The banks holding each of `hashes` (entries not expired at `now`); hashes no bank holds are left out.
    func hashBanks(_ hashes: [[UInt8]], now: UInt64) async throws -> [[UInt8]: [String]]
    /// Adds `hash` to `bank`, expiring at `expires` (never when `nil`); an entry already there gets the new expiry.
    func storeHash(_ hash: [UInt8], bank: String, now: UInt64, expires: UInt64?) async throws
    /// Removes `hash` from `bank`; `false` when the bank did not hold it.
    func deleteHash(_ hash: [UInt8], bank: String) async throws -> Bool
    /// Unexpired hashes of `banks` from `lower` (inclusive) to `upper` (exclusive; `nil`: to the end), at most `limit`.
    func hashes(from lower: [UInt8], to upper: [UInt8]?, banks: [String], now: UInt64, limit: Int) async throws -> [[UInt8]]
    /// Deletes hash-bank entries that expired before `now`; returns how many.
    func deleteHashes(expiredBefore now: UInt64) async throws -> Int
    /// Records a new import job.
    func createImportJob(_ job: HashImportJob) async throws
    /// An import job and its resume offset.
    func importJob(id: String) async throws -> StoredHashImportJob?
    /// Jobs that are queued or were running when the server stopped.
    func unfinishedImportJobs() async throws -> [StoredHashImportJob]
    /// In one transaction: adds `hashes` to `bank` (those already there count as duplicates) and records `progress`;
    /// returns how many were new.
    func importChunk(jobId: String, bank: String, hashes: [[UInt8]], progress: HashImportProgress, now: UInt64) async throws -> Int
    /// Marks an import job `completed` or `failed`.
    func finishImportJob(id: String, state: String, error: String?, now: UInt64) async throws
    /// Removes a device with its keys and mailbox; `false` when there is none.
    func removeDevice(accountId: String, deviceId: UInt32) async throws -> Bool
    /// In one transaction: gives the device a new registration id and deletes its signed, one-time and KEM prekeys
    /// (a new installation of the device); `false` when there is no such device.
    func resetDeviceRegistration(accountId: String, deviceId: UInt32, registrationId: UInt32, passwordHash: String) async throws -> Bool
    /// Replaces the device's stored credential hash `old` with `new` (a legacy hash upgraded after a successful check);
    /// `false` when the device is gone or its credential was replaced meanwhile.
    func replaceDeviceCredentialHash(accountId: String, deviceId: UInt32, from old: String, to new: String) async throws -> Bool
    /// Stores a new registration invite.
    func createInvite(_ invite: StoredInvite) async throws
    /// Accounts for the operator, by id, after `after` (exclusive), at most `limit`.
    func accountSummaries(after: String?, limit: Int) async throws -> [AccountSummary]
    /// Disables or enables an account; `false` when there is none.
    func setAccountDisabled(id: String, disabled: Bool) async throws -> Bool
    /// Deletes an account with its devices, keys, mailboxes and backup (its username becomes free); `false` when there
    /// is none.
    func deleteAccount(id: String) async throws -> Bool
    /// Stores the account's PIN backup, replacing any previous one, with the failure count of `backup`.
    func storeBackup(_ backup: StoredBackup) async throws
    /// The account's PIN backup, if any.
    func backup(accountId: String) async throws -> StoredBackup?
    /// In one transaction: refuses (``BackupAttemptOutcome/keyMismatch``) a backup made under another key than
    /// `keyId`; deletes the backup when it has already counted `maximumFailures` guesses; else counts one and stores
    /// `attemptTokenHash`, the one restore comparison this guess allows (replacing an unused earlier one).
    func countBackupAttempt(accountId: String, maximumFailures: Int, keyId: [UInt8], attemptTokenHash: [UInt8]) async throws
        -> BackupAttemptOutcome
    /// Consumes the restore attempt whose token hashes to `attemptTokenHash`: the backup as it is, or `nil` when no
    /// such attempt is open (then nothing may be compared).
    func takeBackupAttempt(accountId: String, attemptTokenHash: [UInt8]) async throws -> StoredBackup?
    /// Sets the failure count of the account's backup to zero (a restore succeeded) — only if the backup stored is
    /// still the one whose verifier hash is `verifierHash`.
    func resetBackupFailures(accountId: String, verifierHash: [UInt8]) async throws
    /// Deletes the account's backup; with `verifierHash`, only if it is still that backup (a wipe after the last wrong
    /// guess never removes a backup stored meanwhile). Returns whether one was deleted.
    func deleteBackup(accountId: String, verifierHash: [UInt8]?) async throws -> Bool
    /// Stores envelopes for several devices in one transaction: all are stored or none.
    func storeEnvelopes(_ envelopes: [StoredEnvelope]) async throws
    /// Up to `limit` envelopes for the device, oldest first, none older than `notBefore` (server time).
    func pendingEnvelopes(accountId: String, deviceId: UInt32, notBefore: UInt64, limit: Int) async throws -> [StoredEnvelope]
    /// Deletes one envelope of the device; `false` when it has none with that guid.
    func deleteEnvelope(guid: String, accountId: String, deviceId: UInt32) async throws -> Bool
    /// Deletes several envelopes of one device in one transaction (acknowledgements in a batch); returns how many.
    func deleteEnvelopes(guids: [String], accountId: String, deviceId: UInt32) async throws -> Int
    /// Deletes every envelope accepted before `serverTime`; returns how many (a backend that drops whole partitions
    /// may report only the rows it deleted one by one).
    func deleteEnvelopes(olderThan serverTime: UInt64) async throws -> Int
    /// Envelopes waiting in all mailboxes (for the `parley_mailbox_depth` gauge).
    func mailboxDepth() async throws -> Int
}
