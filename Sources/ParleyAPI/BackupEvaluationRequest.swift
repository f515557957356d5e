/// `POST /v1/backup/evaluate` and `POST /v1/backup/{username}/evaluate`: a blinded PIN for the server's oblivious
/// PRF. The element is the PIN's ristretto255 point times a random scalar only the client knows, so it says nothing
/// about the PIN.
public struct BackupEvaluationRequest: Codable, Sendable, Equatable {
    /// The blinded element, base64 of a 32-byte ristretto255 encoding.
    public let blindedElement: String

    /// A request for `blindedElement` (base64).
    public init(blindedElement: String) {
        self.blindedElement = blindedElement
    }
}
