/// The first answer to a send made with an `Idempotency-Key`, kept so that a repeat of that send (a client retrying
/// after it lost the answer) gets the same answer and stores nothing again.
public struct IdempotencyRecord: Sendable, Equatable {
    /// Whose keys these are: one sending device (`device:<account>.<device>`), or, for sends without credentials, the
    /// recipient (`unidentified:<account>`) or, for a sealed sender v2 message, the set of recipients it names
    /// (`unidentified-multi:<SHA-256 of their sorted service ids>`), whose senders choose unguessable keys.
    public let scope: String
    /// The key the client chose.
    public let key: String
    /// What the send was (`<recipient account>:<timestamp>`, `multi:<timestamp>` for a sealed sender v2 message): a
    /// repeat that names another recipient or timestamp reuses the key for a different message and is refused.
    public let fingerprint: String
    /// The first answer's server timestamp (when the envelopes were stored).
    public let serverTimestamp: UInt64

    /// The scope of the keys one sending device chooses.
    public static func deviceScope(accountId: String, deviceId: UInt32) -> String { "device:\(accountId).\(deviceId)" }

    /// A record.
    public init(scope: String, key: String, fingerprint: String, serverTimestamp: UInt64) {
        self.scope = scope
        self.key = key
        self.fingerprint = fingerprint
        self.serverTimestamp = serverTimestamp
    }
}
