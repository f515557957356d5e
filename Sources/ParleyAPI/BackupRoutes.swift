/// PIN-protected key backup: the identity key and the account's secrets, encrypted under a key only the PIN and the
/// server's oblivious PRF together can produce, kept on the server and restored on a new machine.
///
/// Creating (primary device, authenticated): ``evaluate`` a blinded PIN, then ``backup`` (`PUT`). Restoring (no
/// credentials yet): ``evaluate(account:)``, which counts as one guess, then ``restore(account:)`` with the
/// verifier the PIN produced. A backup is found by the account id when its PIN was hashed with the id (what accounts
/// that go by a username use: a new machine finds the id from the username's hash) and by the registered name when it
/// was hashed with the name (``BackupKDFParameters/PINInput``).
public enum BackupRoutes {
    /// `POST` ``BackupEvaluationRequest`` → ``BackupEvaluationResponse``: the account's OPRF key applied to a blinded
    /// PIN (primary device).
    public static let evaluate = "/v1/backup/evaluate"
    /// `PUT` ``StoreBackupRequest`` (primary device) stores the backup, replacing any other; `GET` →
    /// ``BackupStatusResponse`` (any device); `DELETE` removes it (primary device).
    public static let backup = "/v1/backup"
    /// `POST` ``BackupEvaluationRequest`` → ``BackupEvaluationResponse`` with the stretch parameters and the guesses
    /// left (no authentication): one PIN guess against the backup of `account` (an account id or a registered name).
    public static func evaluate(account: String) -> String { "/v1/backup/\(account)/evaluate" }
    /// `POST` ``BackupRestoreRequest`` → ``BackupRestoreResponse`` (no authentication): the encrypted backup, when the
    /// verifier matches.
    public static func restore(account: String) -> String { "/v1/backup/\(account)/restore" }
}
