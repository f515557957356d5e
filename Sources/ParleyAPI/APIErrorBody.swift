/// The body of every error response: a stable machine-readable code and a sentence for people.
///
/// ```json
/// { "code": "invalid_signature", "message": "signed prekey signature does not verify" }
/// ```
public struct APIErrorBody: Codable, Sendable, Equatable {
    /// A stable identifier (`bad_request`, `unauthorized`, `username_taken`, …).
    public let code: String
    /// What went wrong, in words.
    public let message: String

    /// An error body.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}
