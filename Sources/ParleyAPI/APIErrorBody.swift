/// The body of every error response: a stable machine-readable code and a sentence for people.
///
/// ```json
/// { "code": "invalid_signature", "message": "signed prekey signature does not verify" }
/// { "code": "wrong_pin", "message": "wrong PIN; 9 attempts left", "attemptsLeft": 9 }
/// ```
public struct APIErrorBody: Codable, Sendable, Equatable {
    /// A stable identifier (`bad_request`, `unauthorized`, `username_taken`, …).
    public let code: String
    /// What went wrong, in words.
    public let message: String
    /// PIN guesses left before the backup is deleted (`wrong_pin` only).
    public let attemptsLeft: Int?
    /// Seconds until a retry can succeed, as in `Retry-After` (`rate_limited` only).
    public let retryAfter: Int?

    /// An error body.
    public init(code: String, message: String, attemptsLeft: Int? = nil, retryAfter: Int? = nil) {
        self.code = code
        self.message = message
        self.attemptsLeft = attemptsLeft
        self.retryAfter = retryAfter
    }
}
