import Foundation

/// The group a message belongs to, and — on a change — the group's whole new state.
public struct GroupContext: Codable, Sendable, Equatable {
    /// Length of a group id.
    public static let idLength = 16
    /// Most members a group may have.
    public static let maximumMembers = 1000
    /// Longest title (UTF-8 bytes).
    public static let maximumTitleBytes = 256

    /// 16 random bytes chosen by the creator.
    public var id: Data
    /// Increases with every change of title or members.
    public var revision: UInt32
    /// Set when the message changes the group (creation included).
    public var state: GroupState?

    /// A group reference.
    public init(id: Data, revision: UInt32, state: GroupState? = nil) {
        self.id = id
        self.revision = revision
        self.state = state
    }

    init(_ wire: Parley_Content_GroupContext) throws {
        guard wire.id.count == Self.idLength else { throw ParleyError.malformedContent("a group id is \(Self.idLength) bytes") }
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
