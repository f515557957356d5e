/// The encrypted backup, answered when the verifier matched; the failure count is back at zero.
public struct BackupRestoreResponse: Codable, Sendable, Equatable {
    /// The blob as stored (AES-256-GCM, nonce ‖ ciphertext ‖ tag), base64.
    public let blob: String

    /// A restore answer.
    public init(blob: String) {
        self.blob = blob
    }
}
