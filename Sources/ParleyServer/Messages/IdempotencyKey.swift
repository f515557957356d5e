import ParleyAPI

/// The key a client gives a send in the `Idempotency-Key` header (IETF draft-ietf-httpapi-idempotency-key-header), so
/// that repeating the send after a lost answer gets the first answer instead of storing the message twice.
///
/// The header's value is a structured-field string (`"…"`) or, as many clients send it, the bare text: 1 to
/// ``maximumLength`` visible ASCII characters without quotes or backslashes.
struct IdempotencyKey: Sendable, Equatable {
    /// The header that carries it.
    static let headerName = APIRoutes.idempotencyKeyHeader
    /// The longest key accepted.
    static let maximumLength = 128
    /// The shortest key a send without credentials may use: its key is scoped only by the recipient, shared with every
    /// other sender, so it must be unguessable (22 base64url characters carry 128 random bits).
    static let minimumUnguessableLength = 22

    /// The key, unquoted.
    let value: String

    /// The key in `header`; `nil` when there is no header.
    /// - Throws: ``ServerError/badRequest(_:)`` when the header is not a valid key.
    init?(header: String?) throws {
        guard let header else { return nil }
        var text = Substring(header)
        if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
        guard (1...Self.maximumLength).contains(text.utf8.count),
            text.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
        else {
            throw ServerError.badRequest(
                "\(Self.headerName) must be 1…\(Self.maximumLength) visible ASCII characters, "
                    + "without quotes or backslashes (optionally in one pair of double quotes)")
        }
        value = String(text)
    }

    /// Refuses a key too short to be unguessable (see ``minimumUnguessableLength``).
    /// - Throws: ``ServerError/badRequest(_:)``.
    func requireUnguessable() throws {
        guard value.utf8.count >= Self.minimumUnguessableLength else {
            throw ServerError.badRequest(
                "a send without credentials needs an \(Self.headerName) of at least "
                    + "\(Self.minimumUnguessableLength) characters (128 random bits): its key is shared with other senders")
        }
    }
}
