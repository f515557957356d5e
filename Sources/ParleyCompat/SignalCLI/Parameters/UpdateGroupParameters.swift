/// `updateGroup`'s parameters: without `groupId` a new group; with it, a new name, members added or removed, and — for a
/// server-stored group — administrators, bans, the invite link and permissions, as signal-cli names them.
struct UpdateGroupParameters: SignalCLIParameters {
    let groupId: String?
    let name: String?
    /// Members to add (`member` or `members`) and to remove (`removeMember` or `removeMembers`).
    let members: [String]
    let removeMembers: [String]
    /// A disappearing-message timer, which Parley cannot set on a group yet (only 0 is accepted).
    let expiration: Int64?
    /// Members to make administrators (`admin`/`admins`) and ordinary members again (`removeAdmin`/`removeAdmins`).
    let admins: [String]
    let removeAdmins: [String]
    /// People to ban (`ban`) and whose ban to lift (`unban`).
    let bans: [String]
    let unbans: [String]
    /// The invite link: `enabled`, `enabled-with-approval` or `disabled`; `resetLink` makes a new one.
    let link: String?
    let resetLink: Bool
    /// `every-member` or `only-admins`.
    let permissionAddMember: String?
    let permissionEditDetails: String?
    let permissionSendMessages: String?

    init(reading p: SignalCLIParameterReader) throws {
        groupId = try p.string("groupId")
        name = try p.string("name")
        members = try p.list("member", "members")
        removeMembers = try p.list("removeMember", "removeMembers")
        expiration = try p.integer("expiration")
        admins = try p.list("admin", "admins")
        removeAdmins = try p.list("removeAdmin", "removeAdmins")
        bans = try p.list("ban")
        unbans = try p.list("unban")
        link = try p.string("link")
        resetLink = try p.bool("resetLink") ?? false
        permissionAddMember = try p.string("setPermissionAddMember")
        permissionEditDetails = try p.string("setPermissionEditDetails")
        permissionSendMessages = try p.string("setPermissionSendMessages")
    }

    /// Whether the call asks for something only a server-stored group has.
    var changesServerGroupOnly: Bool {
        !admins.isEmpty || !removeAdmins.isEmpty || !bans.isEmpty || !unbans.isEmpty || link != nil || resetLink
            || permissionAddMember != nil || permissionEditDetails != nil || permissionSendMessages != nil
    }
}
