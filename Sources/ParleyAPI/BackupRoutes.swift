/// PIN-protected key backup: the identity key and the account's secrets, encrypted under a key only the PIN and the
/// server's oblivious PRF together can produce, kept on the server and restored on a new machine.
///
/// Creating (primary device, authenticated): ``evaluate`` a blinded PIN, then ``backup`` (`PUT`). Restoring (no
/// credentials yet): ``evaluate(username:)``, which counts as one guess, then ``restore(username:)`` with the
/// verifier the PIN produced.
public enum BackupRoutes {
    /// `POST` ``BackupEvaluationRequest`` → ``BackupEvaluationResponse``: the account's OPRF key applied to a blinded
    /// PIN (primary device).
    public static let evaluate = "/v1/backup/evaluate"
    /// `PUT` ``StoreBackupRequest`` (primary device) stores the backup, replacing any other; `GET` →
    /// ``BackupStatusResponse`` (any device); `DELETE` removes it (primary device).
    public static let backup = "/v1/backup"
    /// `POST` ``BackupEvaluationRequest`` → ``BackupEvaluationResponse`` with the stretch parameters and the guesses
    /// left (no authentication): one PIN guess against `username`'s backup.
    public static func evaluate(username: String) -> String { "/v1/backup/\(username)/evaluate" }
    /// `POST` ``BackupRestoreRequest`` → ``BackupRestoreResponse`` (no authentication): the encrypted backup, when the
    /// verifier matches.
    public static func restore(username: String) -> String { "/v1/backup/\(username)/restore" }
}
