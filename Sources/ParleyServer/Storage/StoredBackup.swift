/// An account's PIN backup as stored: what the client uploaded, less the verifier, of which only a SHA-256 is kept.
/// Nothing here, without the server's OPRF key (a file beside the database), lets anyone test a PIN guess.
public struct StoredBackup: Sendable, Equatable {
    /// The account it belongs to.
    public let accountId: String
    /// The encrypted secrets (AES-256-GCM: nonce ‖ ciphertext ‖ tag).
    public let blob: [UInt8]
    /// The stretch parameters, as the JSON of ``ParleyAPI/BackupKDFParameters``.
    public let kdfParameters: String
    /// SHA-256 of the verifier a restore must present.
    public let verifierHash: [UInt8]
    /// PIN guesses (evaluations) counted since the backup was stored or last restored.
    public let failures: Int
    /// When it was stored, in milliseconds since 1970.
    public let created: UInt64
    /// ``BackupOPRFKey/keyId`` of the key the backup was made with.
    public let keyId: [UInt8]

    /// A backup record.
    public init(
        accountId: String, blob: [UInt8], kdfParameters: String, verifierHash: [UInt8], failures: Int, created: UInt64,
        keyId: [UInt8]
    ) {
        self.keyId = keyId
        self.accountId = accountId
        self.blob = blob
        self.kdfParameters = kdfParameters
        self.verifierHash = verifierHash
        self.failures = failures
        self.created = created
    }
}
