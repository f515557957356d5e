/// A group as stored: its identifier, revision and serialized `Group` protobuf.
public struct StoredGroup: Sendable, Equatable {
    /// The group identifier (32 bytes, from the group's public params).
    public var id: [UInt8]
    /// The revision `state` is at.
    public var version: UInt32
    /// The serialized `Group` protobuf.
    public var state: [UInt8]
    /// When it was last changed, in milliseconds since 1970.
    public var updated: UInt64

    /// A group record.
    public init(id: [UInt8], version: UInt32, state: [UInt8], updated: UInt64) {
        self.id = id
        self.version = version
        self.state = state
        self.updated = updated
    }
}
