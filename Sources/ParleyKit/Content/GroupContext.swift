import Foundation

/// The group a message belongs to, and — on a change — the group's whole new state.
public struct GroupContext: Codable, Sendable, Equatable {
    /// Length of a group id.
    public static let idLength = 16
    /// Most members a group may have.
    public static let maximumMembers = 1000
    /// Longest title (UTF-8 bytes).
    public static let maximumTitleBytes = 256
    /// Largest signed change a message may carry (the server's change of 1,100 actions fits).
    public static let maximumGroupChangeBytes = 1024 * 1024

    /// Length of a server-stored group's id (its identifier, derived from the master key) and of its master key.
    public static let serverGroupIdLength = 32

    /// 16 random bytes chosen by the creator; a server-stored group's 32-byte identifier.
    public var id: Data
    /// Increases with every change of title or members (a server-stored group's: the server's revision).
    public var revision: UInt32
    /// Set when the message changes a client-managed group (creation included).
    public var state: GroupState?
    /// A server-stored group's master key: members fetch and decrypt the group from the server with it.
    public var masterKey: Data?
    /// The server's signed change a message of a server-stored group announces.
    public var groupChange: Data?

    /// A group reference.
    public init(id: Data, revision: UInt32, state: GroupState? = nil, masterKey: Data? = nil, groupChange: Data? = nil) {
        self.id = id
        self.revision = revision
        self.state = state
        self.masterKey = masterKey
        self.groupChange = groupChange
    }

    /// Whether `id` has the length of a group id: a client-managed group's or a server-stored one's.
    static func isGroupId(_ id: Data) -> Bool { id.count == idLength || id.count == serverGroupIdLength }

    /// Whether the group is stored on the server (the message carries its master key).
    public var isServerStored: Bool { masterKey != nil }

    init(_ wire: Parley_Content_GroupContext) throws {
        if !wire.masterKey.isEmpty {
            guard wire.masterKey.count == Self.serverGroupIdLength, wire.id.count == Self.serverGroupIdLength, !wire.hasState,
                wire.groupChange.count <= Self.maximumGroupChangeBytes
            else {
                throw ParleyError.malformedContent(
                    "a server-stored group's context has a 32-byte id and master key, no state and a change of at most \(Self.maximumGroupChangeBytes) bytes"
                )
            }
            self.init(
                id: wire.id, revision: wire.revision, masterKey: wire.masterKey,
                groupChange: wire.groupChange.isEmpty ? nil : wire.groupChange)
            return
        }
        guard wire.id.count == Self.idLength, wire.groupChange.isEmpty else {
            throw ParleyError.malformedContent("a group id is \(Self.idLength) bytes")
        }
        var state: GroupState?
        if wire.hasState {
            guard wire.state.members.count <= Self.maximumMembers, !wire.state.members.isEmpty,
                wire.state.members.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 64 }),
                Set(wire.state.members).count == wire.state.members.count
            else { throw ParleyError.malformedContent("a group has 1…\(Self.maximumMembers) distinct members") }
            guard wire.state.title.utf8.count <= Self.maximumTitleBytes else {
                throw ParleyError.malformedContent("a group title is at most \(Self.maximumTitleBytes) bytes")
            }
            state = GroupState(title: wire.state.title, members: wire.state.members)
        }
        self.init(id: wire.id, revision: wire.revision, state: state)
    }

    func wire() -> Parley_Content_GroupContext {
        var wire = Parley_Content_GroupContext()
        wire.id = id
        wire.revision = revision
        if let masterKey { wire.masterKey = masterKey }
        if let groupChange { wire.groupChange = groupChange }
        if let state {
            wire.state.title = state.title
            wire.state.members = state.members
        }
        return wire
    }
}

/// A group's title and members.
public struct GroupState: Codable, Sendable, Equatable {
    /// The title.
    public var title: String
    /// Account ids of every member.
    public var members: [String]

    /// A state.
    public init(title: String, members: [String]) {
        self.title = title
        self.members = members
    }
}
