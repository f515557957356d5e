/// The outcome of ``ServerStore/countBackupAttempt(accountId:maximumFailures:keyId:attemptTokenHash:)``.
public enum BackupAttemptOutcome: Sendable, Equatable {
    /// The account has no backup.
    case noBackup
    /// The backup had already seen the maximum number of guesses: it was deleted now.
    case wiped
    /// The backup was made under another OPRF key than this process holds: nothing was counted.
    case keyMismatch
    /// The guess was counted; the backup as it is now (its ``StoredBackup/failures`` include this guess).
    case counted(StoredBackup)
}
