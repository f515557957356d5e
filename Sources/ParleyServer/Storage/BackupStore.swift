/// PIN-protected key backups and the guesses counted against them.
///
/// Implementations are safe to call concurrently; each method is one transaction.
public protocol BackupStore: Sendable {
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
}
