/// Bytes that are not a ``BinarySocketMessage`` or the envelope inside one.
public struct BinarySocketMessageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public let message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
