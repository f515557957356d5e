import Foundation

/// A group as this client knows it.
public struct GroupInfo: Sendable, Equatable, Codable {
    /// The group's id (16 bytes; a server-stored group's 32).
    public let id: Data
    /// Its conversation's local id.
    public let conversationId: Int64
    /// The title.
    public let title: String
    /// Account ids of every member.
    public let members: [String]
    /// Increases with every change.
    public let revision: UInt32
    /// This account left or was removed.
    public let left: Bool
    /// Whether the server stores the group (its members, roles and access control are there: ``ParleyClient/serverGroupDetails(_:)``).
    public var serverStored: Bool = false

    /// JSON keys are the properties' names, but for ``conversationId``: `threadId`, its name in earlier releases' output,
    /// kept for scripts that read it.
    private enum CodingKeys: String, CodingKey {
        case id
        case conversationId = "threadId"
        case title, members, revision, left, serverStored
    }

    init(_ group: StoredGroup) {
        self.init(
            id: group.id, conversationId: group.conversationId, title: group.title, members: group.members, revision: group.revision,
            left: group.left)
        serverStored = group.masterKey != nil
    }

    init(id: Data, conversationId: Int64, title: String, members: [String], revision: UInt32, left: Bool) {
        self.id = id
        self.conversationId = conversationId
        self.title = title
        self.members = members
        self.revision = revision
        self.left = left
    }
}
