import Foundation
import ParleyAPI
import ParleyProtocol
import SwiftProtobuf

/// One change of a server-stored group in the making, written against the group as the server has it now: each
/// method adds the actions that make it, skipping what is already so. The server checks every action against the
/// group's access control; this only spares it requests that cannot succeed.
struct ServerGroupChange {
    /// The group as the server answered it.
    let group: Signal_Group
    let secret: GroupSecretParams
    let localAccountId: String
    let groups: ServerGroups
    /// The actions so far (the revision is set when the change is sent).
    var actions = Signal_GroupChange.Actions()
    /// The invite link's password, when joining by link.
    var inviteLinkPassword: Data?

    /// Whether any action was added.
    var changesSomething: Bool {
        var empty = actions
        empty.version = 0
        return empty != Signal_GroupChange.Actions()
    }

    private func userId(_ accountId: String) throws -> Data { try ServerGroups.userId(accountId, secret) }

    private func isMember(_ userId: Data) -> Bool { group.members.contains { $0.userID == userId } }

    private var myRole: Signal_Member.Role? {
        let me = try? userId(localAccountId)
        return group.members.first { $0.userID == me }?.role
    }

    /// Sets the title.
    mutating func setTitle(_ title: String) throws {
        guard !title.isEmpty, title.utf8.count <= GroupContext.maximumTitleBytes else {
            throw ParleyError.invalidArgument("a group title is 1…\(GroupContext.maximumTitleBytes) bytes")
        }
        actions.modifyTitle.title = try ServerGroups.blob(.with { $0.title = title }, secret)
    }

    /// Sets the description (at most 480 characters, as Signal's clients allow).
    mutating func setDescription(_ text: String) throws {
        guard text.count <= 480 else { throw ParleyError.invalidArgument("a group description is at most 480 characters") }
        actions.modifyDescription.description_p = try ServerGroups.blob(.with { $0.descriptionText = text }, secret)
    }

    /// Adds `accountIds`: as members when this device can present their profile key credential, else as invitations.
    mutating func add(_ accountIds: [String]) async throws {
        for accountId in Set(accountIds).sorted() {
            let id = try userId(accountId)
            guard !isMember(id) else { continue }
            if group.membersBanned.contains(where: { $0.userID == id }) {
                actions.deleteMembersBanned.append(.with { $0.deletedUserID = id })
            }
            if group.membersPendingAdminApproval.contains(where: { $0.userID == id }) {
                actions.promoteMembersPendingAdminApproval.append(
                    .with {
                        $0.userID = id
                        $0.role = .default
                    })
            } else if group.membersPendingProfileKey.contains(where: { $0.member.userID == id }) {
                continue
            } else if let entry = try await groups.member(accountId, role: .default, secret: secret) {
                actions.addMembers.append(.with { $0.added = entry })
            } else {
                actions.addMembersPendingProfileKey.append(
                    .with {
                        $0.added.member = .with {
                            $0.userID = id
                            $0.role = .default
                        }
                    })
            }
        }
    }

    /// Removes `accountIds` from the members, the invited and those asking to join.
    mutating func remove(_ accountIds: [String]) throws {
        for accountId in Set(accountIds).sorted() {
            let id = try userId(accountId)
            if isMember(id) {
                actions.deleteMembers.append(.with { $0.deletedUserID = id })
            } else if group.membersPendingProfileKey.contains(where: { $0.member.userID == id }) {
                actions.deleteMembersPendingProfileKey.append(.with { $0.deletedUserID = id })
            } else if group.membersPendingAdminApproval.contains(where: { $0.userID == id }) {
                actions.deleteMembersPendingAdminApproval.append(.with { $0.deletedUserID = id })
            }
        }
    }

    /// Leaves the group; the last administrator first makes the longest-standing other member one, so the group is
    /// never left without.
    mutating func leave() throws {
        let me = try userId(localAccountId)
        guard isMember(me) else { throw ParleyError.invalidArgument("this account is not a member of the group") }
        let others = group.members.filter { $0.userID != me }
        if myRole == .administrator, !others.contains(where: { $0.role == .administrator }),
            let heir = others.min(by: { $0.joinedAtVersion < $1.joinedAtVersion })
        {
            actions.modifyMemberRoles.append(
                .with {
                    $0.userID = heir.userID
                    $0.role = .administrator
                })
        }
        actions.deleteMembers.append(.with { $0.deletedUserID = me })
    }

    /// Makes `accountId` an administrator, or (`revoke`) an ordinary member.
    mutating func setAdministrator(_ accountId: String, revoke: Bool) throws {
        let id = try userId(accountId)
        guard let member = group.members.first(where: { $0.userID == id }) else {
            throw ParleyError.invalidArgument("\(accountId) is not a member of the group")
        }
        let role: Signal_Member.Role = revoke ? .default : .administrator
        if member.role != role {
            actions.modifyMemberRoles.append(
                .with {
                    $0.userID = id
                    $0.role = role
                })
        }
    }

    /// Sets who adds members, who edits the group's details and who sends messages (`nil`: unchanged).
    mutating func setPermissions(
        addMembers: ServerGroupDetails.Access?, editDetails: ServerGroupDetails.Access?, sendMessages: ServerGroupDetails.Access?
    ) {
        let required = { (access: ServerGroupDetails.Access) -> Signal_AccessControl.AccessRequired in
            access == .admins ? .administrator : .member
        }
        if let addMembers, required(addMembers) != group.accessControl.members {
            actions.modifyMemberAccess.membersAccess = required(addMembers)
        }
        if let editDetails, required(editDetails) != group.accessControl.attributes {
            actions.modifyAttributesAccess.attributesAccess = required(editDetails)
        }
        if let sendMessages, (sendMessages == .admins) != group.announcementsOnly {
            actions.modifyAnnouncementsOnly.announcementsOnly = sendMessages == .admins
        }
    }

    /// Sets how the invite link admits people; `reset` gives it a new password (the old link stops working).
    mutating func setLink(_ access: ServerGroupDetails.LinkAccess, reset: Bool) {
        let required: Signal_AccessControl.AccessRequired =
            switch access {
            case .off: .unsatisfiable
            case .open: .any
            case .approval: .administrator
            }
        if required != group.accessControl.addFromInviteLink {
            actions.modifyAddFromInviteLinkAccess.addFromInviteLinkAccess = required
        }
        if access != .off, reset || group.inviteLinkPassword.isEmpty {
            var generator = SystemRandomNumberGenerator()
            actions.modifyInviteLinkPassword.inviteLinkPassword = Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
    }

    /// Approves (or denies) `accountId`'s request to join.
    mutating func answerRequest(of accountId: String, approve: Bool) throws {
        let id = try userId(accountId)
        guard group.membersPendingAdminApproval.contains(where: { $0.userID == id }) else {
            throw ParleyError.invalidArgument("\(accountId) has not asked to join the group")
        }
        if approve {
            actions.promoteMembersPendingAdminApproval.append(
                .with {
                    $0.userID = id
                    $0.role = .default
                })
        } else {
            actions.deleteMembersPendingAdminApproval.append(.with { $0.deletedUserID = id })
        }
    }

    /// Bans `accountId` (removing them first, whatever they are in the group), or lifts the ban (`lift`).
    mutating func ban(_ accountId: String, lift: Bool) throws {
        let id = try userId(accountId)
        let banned = group.membersBanned.contains { $0.userID == id }
        if lift {
            if banned { actions.deleteMembersBanned.append(.with { $0.deletedUserID = id }) }
            return
        }
        guard !banned else { return }
        if isMember(id) { actions.deleteMembers.append(.with { $0.deletedUserID = id }) }
        actions.addMembersBanned.append(.with { $0.added.userID = id })
    }
}
