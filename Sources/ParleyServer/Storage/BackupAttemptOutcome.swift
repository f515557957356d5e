/// The outcome of ``ServerStore/countBackupAttempt(accountId:maximumFailures:)``.
public enum BackupAttemptOutcome: Sendable, Equatable {
    /// The account has no backup.
    case noBackup
    /// The backup had already seen the maximum number of guesses: it was deleted now.
    case wiped
    /// The guess was counted; the backup as it is now (its ``StoredBackup/failures`` include this guess).
    case counted(StoredBackup)
}
