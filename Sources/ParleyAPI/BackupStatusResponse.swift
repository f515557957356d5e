/// `GET /v1/backup`: whether the account has a PIN backup, when it was made and how many wrong guesses it has seen
/// since the last successful restore.
public struct BackupStatusResponse: Codable, Sendable, Equatable {
    /// Whether a backup is stored.
    public let exists: Bool
    /// When it was stored, in milliseconds since 1970.
    public let created: UInt64?
    /// Guesses counted since it was stored or last restored.
    public let failures: Int?
    /// The stretch it was made with.
    public let kdf: BackupKDFParameters?

    /// A status; the other fields only when `exists`.
    public init(exists: Bool, created: UInt64? = nil, failures: Int? = nil, kdf: BackupKDFParameters? = nil) {
        self.exists = exists
        self.created = created
        self.failures = failures
        self.kdf = kdf
    }
}
