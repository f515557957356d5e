import Foundation

/// A server-stored group as this device last read it from the server, decrypted: who is in it in which role, who is
/// invited, asking or banned, and what its access control and invite link allow.
public struct ServerGroupDetails: Sendable, Equatable {
    /// Who may do something: every member, or only administrators.
    public enum Access: String, Sendable, Equatable, Codable {
        /// Every member.
        case members
        /// Administrators only.
        case admins
    }

    /// How the invite link admits people.
    public enum LinkAccess: String, Sendable, Equatable, Codable {
        /// No link.
        case off
        /// Anyone with the link joins.
        case open
        /// Anyone with the link may ask; an administrator approves.
        case approval
    }

    /// The group's id (its 32-byte identifier).
    public var id: GroupID
    /// The server's revision.
    public var revision: UInt32
    /// The title.
    public var title: String
    /// The description.
    public var groupDescription: String
    /// Full members' account ids.
    public var members: [String]
    /// Administrators' account ids (a subset of ``members``).
    public var administrators: [String]
    /// Invited people's account ids (not yet members).
    public var invited: [String]
    /// People asking to join by link, waiting for an administrator.
    public var requesting: [String]
    /// Banned people's account ids.
    public var banned: [String]
    /// Who adds members.
    public var addMembers: Access
    /// Who edits the title, description, avatar and timer.
    public var editDetails: Access
    /// Who sends messages (administrators only: an announcements group).
    public var sendMessages: Access
    /// How the invite link admits people.
    public var link: LinkAccess
    /// The invite link, when it is on.
    public var inviteLink: String?
}
