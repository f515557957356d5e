/// `updateGroup`'s parameters: without `groupId` a new group; with it, a new name, members added or removed.
struct UpdateGroupParameters: SignalCLIParameters {
    let groupId: String?
    let name: String?
    /// Members to add (`member` or `members`) and to remove (`removeMember` or `removeMembers`).
    let members: [String]
    let removeMembers: [String]
    /// A disappearing-message timer, which Parley cannot set on a group yet (only 0 is accepted).
    let expiration: Int64?

    init(reading p: SignalCLIParameterReader) throws {
        groupId = try p.string("groupId")
        name = try p.string("name")
        members = try p.list("member", "members")
        removeMembers = try p.list("removeMember", "removeMembers")
        expiration = try p.integer("expiration")
    }
}
