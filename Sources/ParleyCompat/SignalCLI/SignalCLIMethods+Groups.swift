import Foundation
import ParleyKit

/// signal-cli's group methods: `listGroups`, `updateGroup` (making, renaming, members), `quitGroup`.
extension SignalCLIMethods {
    func listGroups(_ p: ListGroupsParameters) throws -> JSONValue {
        let wanted = Set(try p.groupIds.map { try GroupID(text: $0) })
        let groups = try client.groups().filter { wanted.isEmpty || wanted.contains(GroupID($0.id)) }
        let names = try client.usernames(of: groups.flatMap(\.members))
        return .array(
            groups.map { group in
                let members = group.members.map { member -> JSONValue in
                    let address = SignalCLIAddress.Address(accountId: member, username: names[member])
                    return .object(["number": .orNull(address.number), "uuid": .string(member), "isAdmin": .bool(false)])
                }
                return .object([
                    "id": .string(GroupID(group.id).base64), "name": .string(group.title), "description": .string(""),
                    "isMember": .bool(!group.left), "isBlocked": .bool(false), "messageExpirationTime": .integer(0),
                    "members": .array(members), "pendingMembers": .array([]), "requestingMembers": .array([]), "admins": .array([]),
                    "banned": .array([]), "permissionAddMember": .string("EVERY_MEMBER"), "permissionEditDetails": .string("EVERY_MEMBER"),
                    "permissionSendMessage": .string("EVERY_MEMBER"), "groupInviteLink": .null,
                ])
            })
    }

    func updateGroup(_ p: UpdateGroupParameters) async throws -> JSONValue {
        if let expiration = p.expiration, expiration != 0 {
            throw JSONRPCError.userError("Parley cannot set a group's disappearing-message timer yet")
        }
        let adding = p.members
        let removing = p.removeMembers
        // Bounded before anything is looked up: no group holds more.
        guard adding.count <= GroupContext.maximumMembers, removing.count <= GroupContext.maximumMembers else {
            throw JSONRPCError.userError("A group has at most \(GroupContext.maximumMembers) members")
        }
        let added = try await resolve(adding)
        let removed = try await resolve(removing)
        guard let text = p.groupId else {
            let (id, _) = try await client.createGroup(title: p.name ?? "", members: added, attempt: .dueJobs)
            return .object([
                "groupId": .string(GroupID(id).base64), "timestamp": .integer(Int64(Self.now)),
                "results": .array([]),
            ])
        }
        let group = try group(text)
        let title = p.name.flatMap { $0 == group.title ? nil : $0 }
        _ = try await client.updateGroup(group.id, title: title, adding: added, removing: removed, attempt: .dueJobs)
        return .object(["timestamp": .integer(Int64(Self.now)), "results": .array([])])
    }

    func quitGroup(_ p: QuitGroupParameters) async throws -> JSONValue {
        guard let text = p.groupId else { throw JSONRPCError.userError("Group id parameter is missing") }
        let group = try group(text)
        guard !group.left else { return .object([:]) }
        _ = try await client.leaveGroup(group.id, attempt: .dueJobs)
        return .object(["timestamp": .integer(Int64(Self.now)), "results": .array([])])
    }
}
