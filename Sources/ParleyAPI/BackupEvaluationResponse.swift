/// The server's oblivious PRF applied to a blinded PIN. On the restore route it also carries the backup's stretch
/// parameters and how many guesses remain before the backup is deleted.
public struct BackupEvaluationResponse: Codable, Sendable, Equatable {
    /// The account's OPRF key times the blinded element, base64 of a 32-byte ristretto255 encoding.
    public let evaluatedElement: String
    /// The stored backup's stretch parameters (restore route only).
    public let kdf: BackupKDFParameters?
    /// Guesses left after this one before the backup is deleted (restore route only).
    public let attemptsLeft: Int?
    /// The one restore attempt this counted guess allows, base64 of 32 random bytes (restore route only): the
    /// restore request must present it, so every verifier the server compares costs one counted guess.
    public let attemptToken: String?

    /// An evaluation; `kdf`, `attemptsLeft` and `attemptToken` only when answering a restore.
    public init(evaluatedElement: String, kdf: BackupKDFParameters? = nil, attemptsLeft: Int? = nil, attemptToken: String? = nil) {
        self.evaluatedElement = evaluatedElement
        self.kdf = kdf
        self.attemptsLeft = attemptsLeft
        self.attemptToken = attemptToken
    }
}
