/// A request body that is well-formed JSON but breaks one of the API's rules for a value (a push target naming two
/// providers, for example). Decoders throw it as the underlying error of `DecodingError.dataCorrupted`, so the server
/// can answer with `message` rather than a generic "not valid JSON".
public struct APIValueError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in words a client developer can act on.
    public let message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
