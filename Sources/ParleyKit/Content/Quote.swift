/// A reply's reference to the message it answers.
public struct Quote: Codable, Sendable, Equatable {
    /// The quoted message's author.
    public var authorAccountId: String
    /// The quoted message's timestamp (with the author, its identity).
    public var timestamp: UInt64

    /// A reference to the message `authorAccountId` sent at `timestamp`.
    public init(authorAccountId: String, timestamp: UInt64) {
        self.authorAccountId = authorAccountId
        self.timestamp = timestamp
    }
}
