/// Receipts for messages the receiving side sent.
public struct Receipt: Codable, Sendable, Equatable {
    /// `delivered` or `read`.
    public var kind: String
    /// The timestamps of the messages concerned.
    public var timestamps: [UInt64]

    /// Receipts of `kind` for the messages sent at `timestamps`.
    public init(kind: String, timestamps: [UInt64]) {
        self.kind = kind
        self.timestamps = timestamps
    }
}
