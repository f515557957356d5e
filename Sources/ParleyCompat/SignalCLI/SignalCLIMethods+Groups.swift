import Foundation
import ParleyKit

/// signal-cli's group methods: `listGroups`, `updateGroup` (making, renaming, members; for a server-stored group also
/// administrators, bans, the invite link and permissions), `joinGroup` (by invite link), `quitGroup`.
extension SignalCLIMethods {
    func listGroups(_ p: ListGroupsParameters) throws -> JSONValue {
        let wanted = Set(try p.groupIds.map { try GroupID(text: $0) })
        let groups = try client.groups().filter { wanted.isEmpty || wanted.contains(GroupID($0.id)) }
        let details = Dictionary(
            uniqueKeysWithValues: groups.compactMap { group in (try? client.serverGroupDetails(group.id)).map { (group.id, $0) } })
        let everyone = details.values.flatMap { $0.invited + $0.requesting + $0.banned }
        let names = try client.usernames(of: groups.flatMap(\.members) + everyone)
        func address(_ accountId: String) -> JSONValue {
            let address = SignalCLIAddress.Address(accountId: accountId, username: names[accountId])
            return .object(["number": .orNull(address.number), "uuid": .string(accountId)])
        }
        func permission(_ access: ServerGroupDetails.Access?) -> JSONValue { .string(access == .admins ? "ONLY_ADMINS" : "EVERY_MEMBER") }
        return .array(
            groups.map { group in
                let server = details[group.id]
                let admins = Set(server?.administrators ?? [])
                let members = group.members.filter { server?.invited.contains($0) != true }.map { member -> JSONValue in
                    guard case .object(var fields) = address(member) else { return .null }
                    fields["isAdmin"] = .bool(admins.contains(member))
                    return .object(fields)
                }
                return .object([
                    "id": .string(GroupID(group.id).base64), "name": .string(group.title),
                    "description": .string(server?.groupDescription ?? ""), "isMember": .bool(!group.left), "isBlocked": .bool(false),
                    "messageExpirationTime": .integer(0), "members": .array(members),
                    "pendingMembers": .array((server?.invited ?? []).map(address)),
                    "requestingMembers": .array((server?.requesting ?? []).map(address)),
                    "admins": .array((server?.administrators ?? []).map(address)), "banned": .array((server?.banned ?? []).map(address)),
                    "permissionAddMember": permission(server?.addMembers), "permissionEditDetails": permission(server?.editDetails),
                    "permissionSendMessage": permission(server?.sendMessages), "groupInviteLink": .orNull(server?.inviteLink),
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
        if p.changesServerGroupOnly, !group.serverStored {
            throw JSONRPCError.userError(
                "Group \(group.title) is client-managed: administrators, bans, links and permissions are for server-stored groups")
        }
        let title = p.name.flatMap { $0 == group.title ? nil : $0 }
        if title != nil || !added.isEmpty || !removed.isEmpty || !p.changesServerGroupOnly {
            _ = try await client.updateGroup(group.id, title: title, adding: added, removing: removed, attempt: .dueJobs)
        }
        for person in try await resolve(p.admins) {
            _ = try await client.setGroupAdministrator(group.id, person: person, revoke: false, attempt: .dueJobs)
        }
        for person in try await resolve(p.removeAdmins) {
            _ = try await client.setGroupAdministrator(group.id, person: person, revoke: true, attempt: .dueJobs)
        }
        for person in try await resolve(p.bans) {
            _ = try await client.banFromGroup(group.id, person: person, lift: false, attempt: .dueJobs)
        }
        for person in try await resolve(p.unbans) {
            _ = try await client.banFromGroup(group.id, person: person, lift: true, attempt: .dueJobs)
        }
        let permissions = (
            try Self.access(p.permissionAddMember, "setPermissionAddMember"),
            try Self.access(p.permissionEditDetails, "setPermissionEditDetails"),
            try Self.access(p.permissionSendMessages, "setPermissionSendMessages")
        )
        if permissions.0 != nil || permissions.1 != nil || permissions.2 != nil {
            _ = try await client.setGroupPermissions(
                group.id, addMembers: permissions.0, editDetails: permissions.1, sendMessages: permissions.2, attempt: .dueJobs)
        }
        if p.link != nil || p.resetLink {
            let access: ServerGroupDetails.LinkAccess
            switch p.link {
            case "enabled": access = .open
            case "enabled-with-approval", "enabledWithApproval": access = .approval
            case "disabled": access = .off
            case nil: access = try client.serverGroupDetails(group.id).link
            default: throw JSONRPCError.userError("link is enabled, enabled-with-approval or disabled")
            }
            _ = try await client.setGroupLink(group.id, access: access, reset: p.resetLink, attempt: .dueJobs)
        }
        return .object(["timestamp": .integer(Int64(Self.now)), "results": .array([])])
    }

    /// A permission as signal-cli takes it (`every-member`, `only-admins`).
    static func access(_ text: String?, _ name: String) throws -> ServerGroupDetails.Access? {
        switch text {
        case nil: nil
        case "every-member", "EVERY_MEMBER": .members
        case "only-admins", "ONLY_ADMINS": .admins
        default: throw JSONRPCError.userError("\(name) is every-member or only-admins")
        }
    }

    func joinGroup(_ p: JoinGroupParameters) async throws -> JSONValue {
        guard let uri = p.uri else { throw JSONRPCError.userError("uri parameter is missing") }
        let (id, joined, _) = try await client.joinGroup(link: uri, attempt: .dueJobs)
        return .object([
            "groupId": .string(GroupID(id).base64), "timestamp": .integer(Int64(Self.now)), "results": .array([]),
            "pendingAdminApproval": .bool(!joined),
        ])
    }

    func quitGroup(_ p: QuitGroupParameters) async throws -> JSONValue {
        guard let text = p.groupId else { throw JSONRPCError.userError("Group id parameter is missing") }
        let group = try group(text)
        guard !group.left else { return .object([:]) }
        _ = try await client.leaveGroup(group.id, attempt: .dueJobs)
        return .object(["timestamp": .integer(Int64(Self.now)), "results": .array([])])
    }
}
