import Foundation

/// One group as the client database holds it: a thread with a group id, a title, a revision that orders changes, and
/// its members.
struct StoredGroup: Sendable {
    /// The group's conversation.
    let conversationId: Int64
    /// The group's id (shared by every member).
    let id: Data
    /// Its title.
    let title: String
    /// The revision of its last applied change.
    let revision: UInt32
    /// Its members' account ids, sorted.
    let members: [String]
    /// Whether this account is no longer a member.
    let left: Bool
    /// A server-stored group's master key; `nil` for a client-managed group.
    var masterKey: Data? = nil
    /// Whether only administrators send (a server-stored announcements group).
    var announcementsOnly = false
    /// A server-stored group's administrators.
    var administrators: [String] = []

    /// The context a message in this group carries.
    var context: GroupContext { GroupContext(id: id, revision: revision, masterKey: masterKey) }
}
