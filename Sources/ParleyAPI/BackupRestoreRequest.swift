/// `POST /v1/backup/{username}/restore`: the verifier the PIN produced, for the server to compare (as SHA-256
/// digests, in constant time) with the one stored.
public struct BackupRestoreRequest: Codable, Sendable, Equatable {
    /// The 32-byte verifier, base64.
    public let verifier: String
    /// The attempt token of the evaluation this restore follows (each token allows one comparison).
    public let attemptToken: String

    /// A restore request.
    public init(verifier: String, attemptToken: String) {
        self.verifier = verifier
        self.attemptToken = attemptToken
    }
}
