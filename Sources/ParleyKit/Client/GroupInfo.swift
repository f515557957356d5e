import Foundation

/// A group as this client knows it.
public struct GroupInfo: Sendable, Equatable, Codable {
    /// The group's id (16 bytes).
    public let id: Data
    /// Its conversation's local thread id.
    public let threadId: Int64
    /// The title.
    public let title: String
    /// Account ids of every member.
    public let members: [String]
    /// Increases with every change.
    public let revision: UInt32
    /// This account left or was removed.
    public let left: Bool

    init(_ group: StoredGroup) {
        self.init(
            id: group.id, threadId: group.threadId, title: group.title, members: group.members, revision: group.revision, left: group.left)
    }

    init(id: Data, threadId: Int64, title: String, members: [String], revision: UInt32, left: Bool) {
        self.id = id
        self.threadId = threadId
        self.title = title
        self.members = members
        self.revision = revision
        self.left = left
    }
}
