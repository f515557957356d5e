/// `PUT /v1/backup`: the primary device's encrypted backup. The server keeps the blob, the parameters and a SHA-256
/// of the verifier — never the verifier itself — and starts the failure count at zero.
public struct StoreBackupRequest: Codable, Sendable, Equatable {
    /// The encrypted secrets (AES-256-GCM, nonce ‖ ciphertext ‖ tag), base64, at most 64 KiB decoded.
    public let blob: String
    /// How the PIN's OPRF output was stretched.
    public let kdf: BackupKDFParameters
    /// The 32-byte value a restore must present, derived from the PIN like the encryption key, base64.
    public let verifier: String

    /// A backup.
    public init(blob: String, kdf: BackupKDFParameters, verifier: String) {
        self.blob = blob
        self.kdf = kdf
        self.verifier = verifier
    }
}
