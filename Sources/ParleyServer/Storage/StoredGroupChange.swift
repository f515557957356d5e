/// One entry of a group's change log: the signed change that made a revision and the state it made.
public struct StoredGroupChange: Sendable, Equatable {
    /// The revision the change made.
    public var version: UInt32
    /// The serialized, signed `GroupChange` protobuf.
    public var change: [UInt8]
    /// The serialized `Group` protobuf at `version`.
    public var state: [UInt8]

    /// A log entry.
    public init(version: UInt32, change: [UInt8], state: [UInt8]) {
        self.version = version
        self.change = change
        self.state = state
    }
}
