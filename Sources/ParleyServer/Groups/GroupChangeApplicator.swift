import Foundation
import ParleyAPI
import ParleyProtocol

/// The rules of a server-stored group: checks a new group and applies a change's actions, refusing what the group's
/// access control reserves to others. Pure: it reads and returns protobufs and never touches storage.
///
/// Member ids are `UuidCiphertext`s under the group's key: the server compares those bytes and never learns who they
/// are. Permissions are judged on the group as it was before the change.
public struct GroupChangeApplicator: Sendable {
    /// The bounds applied.
    public let limits: GroupLimits
    /// Checks members' profile key credential presentations.
    public let presentations: MemberPresentationVerifier

    /// An applicator with `limits` and `presentations`.
    public init(limits: GroupLimits, presentations: MemberPresentationVerifier) {
        self.limits = limits
        self.presentations = presentations
    }

    typealias Role = Signal_Member.Role
    typealias Access = Signal_AccessControl.AccessRequired

    /// The length of an invite link password.
    static let inviteLinkPasswordBytes = 16

    // MARK: Creating

    /// `proposed` checked as a new group created by `caller` at `now`, as it will be stored: members' presentations
    /// replaced by the ciphertexts they prove, invitations stamped with their inviter and time.
    /// - Throws: ``GroupRuleError`` naming the first problem.
    public func newGroup(_ proposed: Signal_Group, caller: GroupCaller, now: Date) throws(GroupRuleError) -> Signal_Group {
        guard proposed.version == 0 else { throw .invalid("a new group starts at revision 0") }
        guard proposed.publicKey == caller.publicParams.serialize() else {
            throw .invalid("the group's public key is not the one the credential was presented for")
        }
        guard proposed.membersPendingAdminApproval.isEmpty, proposed.membersBanned.isEmpty else {
            throw .invalid("a new group has no requesting or banned members")
        }
        var group = proposed
        group.members = []
        group.membersPendingProfileKey = []
        try checkAttributes(
            title: group.title, description: group.description_p, avatar: group.avatar, timer: group.disappearingMessagesTimer)
        if !group.hasAccessControl {
            group.accessControl.attributes = .member
            group.accessControl.members = .member
            group.accessControl.addFromInviteLink = .unsatisfiable
        }
        try checkMemberAccess(group.accessControl.attributes, "attributes")
        try checkMemberAccess(group.accessControl.members, "members")
        try checkLinkAccess(group.accessControl.addFromInviteLink)
        try checkInviteLinkPassword(group.inviteLinkPassword)
        guard proposed.members.count + proposed.membersPendingProfileKey.count <= limits.maximumMembers else {
            throw .invalid("a group holds at most \(limits.maximumMembers) members and invitations")
        }
        var state = GroupState(group)
        for member in proposed.members {
            try checkRole(member.role)
            let (userId, profileKey) = try presentations.verify(member.presentation, publicParams: caller.publicParams, now: now)
            guard state.place(of: userId) == nil else { throw .invalid("a member appears twice") }
            state.appendMember(userId, profileKey: profileKey, role: member.role, joinedAt: 0)
        }
        guard state.role(of: caller.userId) == .administrator else {
            throw .forbidden("the creator must be one of the group's administrators")
        }
        for invited in proposed.membersPendingProfileKey {
            try state.appendInvitation(invited.member, by: caller.userId, now: now, applicator: self)
        }
        return state.group
    }

    // MARK: Changing

    /// `group` with `actions` applied by `caller` at `now`, and the actions as they will be signed (author and revision
    /// set, presentations replaced by what they prove). `inviteLinkPassword` is what the caller presented, if anything.
    /// - Throws: ``GroupRuleError/staleRevision(current:)`` unless `actions.version` is the next revision; otherwise
    ///   ``GroupRuleError`` naming the first action refused.
    public func apply(
        _ actions: Signal_GroupChange.Actions, to group: Signal_Group, caller: GroupCaller, inviteLinkPassword: Data?, now: Date
    ) throws(GroupRuleError) -> (group: Signal_Group, actions: Signal_GroupChange.Actions) {
        guard actions.version == group.version &+ 1 else { throw .staleRevision(current: group.version) }
        try checkActionCount(actions)
        try checkSelfActions(actions)
        let before = GroupState(group)
        let callerRole = before.role(of: caller.userId)
        let isAdministrator = callerRole == .administrator
        let isMember = callerRole != nil
        var state = before
        var signed = actions
        signed.sourceUuid = caller.userId
        let version = actions.version
        state.group.version = version
        let linkPasswordMatches = inviteLinkPassword.map { Self.matches(group.inviteLinkPassword, $0) } ?? false

        func requireAdministrator(_ what: String) throws(GroupRuleError) {
            guard isAdministrator else { throw .forbidden("only an administrator may \(what)") }
        }
        func requireAccess(_ access: Access, _ what: String) throws(GroupRuleError) {
            switch access {
            case .any, .member: guard isMember else { throw .forbidden("only a member may \(what)") }
            case .administrator: try requireAdministrator(what)
            default: throw .forbidden("nobody may \(what) in this group")
            }
        }

        // Unbanning comes first, so a change may lift a ban and add the person again.
        for action in actions.deleteMembersBanned {
            try requireAdministrator("lift a ban")
            guard case .banned(let index) = state.place(of: action.deletedUserID) else { throw .invalid("lifting a ban nobody has") }
            state.group.membersBanned.remove(at: index)
            state.reindex()
        }

        for (position, action) in actions.addMembers.enumerated() {
            // What costs nothing first; the presentation (~2.5 ms) only for an action that may be allowed.
            if action.joinFromInviteLink {
                guard !isMember else { throw .invalid("already a member") }
                guard linkPasswordMatches, group.accessControl.addFromInviteLink == .any else {
                    throw .forbidden("the invite link is wrong, off or needs an administrator's approval")
                }
                guard action.added.role == .default else { throw .forbidden("joining by link makes an ordinary member") }
            } else {
                try requireAccess(group.accessControl.members, "add members")
                try checkRole(action.added.role)
                if action.added.role == .administrator { try requireAdministrator("add an administrator") }
            }
            let (userId, profileKey) = try presentations.verify(action.added.presentation, publicParams: caller.publicParams, now: now)
            if action.joinFromInviteLink, userId != caller.userId { throw .forbidden("joining by link adds only oneself") }
            switch state.place(of: userId) {
            case .member: throw .invalid("adding someone who is already a member")
            case .banned: throw .forbidden("adding someone who is banned")
            case .invited, .requesting: state.remove(userId)
            case nil: break
            }
            signed.addMembers[position].added = state.appendMember(
                userId, profileKey: profileKey, role: action.added.role, joinedAt: version)
        }

        for action in actions.deleteMembers {
            guard case .member = state.place(of: action.deletedUserID) else { throw .invalid("removing someone who is not a member") }
            if action.deletedUserID != caller.userId { try requireAdministrator("remove another member") }
            state.remove(action.deletedUserID)
        }

        for action in actions.modifyMemberRoles {
            try requireAdministrator("change a member's role")
            try checkRole(action.role)
            guard case .member(let index) = state.place(of: action.userID) else { throw .invalid("changing the role of a non-member") }
            state.group.members[index].role = action.role
        }

        for (position, action) in actions.modifyMemberProfileKeys.enumerated() {
            let (userId, profileKey) = try presentations.verify(action.presentation, publicParams: caller.publicParams, now: now)
            guard userId == caller.userId, case .member(let index) = state.place(of: userId) else {
                throw .forbidden("a member updates only their own profile key")
            }
            state.group.members[index].profileKey = profileKey
            signed.modifyMemberProfileKeys[position] = .with {
                $0.userID = userId
                $0.profileKey = profileKey
            }
        }

        for (position, action) in actions.addMembersPendingProfileKey.enumerated() {
            try requireAccess(group.accessControl.members, "invite members")
            if action.added.member.role == .administrator { try requireAdministrator("invite an administrator") }
            let invitation = try state.appendInvitation(action.added.member, by: caller.userId, now: now, applicator: self)
            signed.addMembersPendingProfileKey[position].added = invitation
        }

        for action in actions.deleteMembersPendingProfileKey {
            guard case .invited(let index) = state.place(of: action.deletedUserID) else {
                throw .invalid("revoking an invitation nobody has")
            }
            let invitation = state.group.membersPendingProfileKey[index]
            guard isAdministrator || action.deletedUserID == caller.userId || invitation.addedByUserID == caller.userId else {
                throw .forbidden("only an administrator, the inviter or the invited person may revoke an invitation")
            }
            state.remove(action.deletedUserID)
        }

        for (position, action) in actions.promoteMembersPendingProfileKey.enumerated() {
            let (userId, profileKey) = try presentations.verify(action.presentation, publicParams: caller.publicParams, now: now)
            guard userId == caller.userId, case .invited(let index) = state.place(of: userId) else {
                throw .forbidden("only the invited person accepts an invitation")
            }
            let role = state.group.membersPendingProfileKey[index].member.role
            state.remove(userId)
            state.appendMember(userId, profileKey: profileKey, role: role, joinedAt: version)
            signed.promoteMembersPendingProfileKey[position] = .with {
                $0.userID = userId
                $0.profileKey = profileKey
            }
        }

        if !actions.promoteMembersPendingPniAciProfileKey.isEmpty {
            throw .invalid("invitations by phone number identity are not supported: Parley accounts have no PNI")
        }

        if actions.hasModifyTitle {
            try requireAccess(group.accessControl.attributes, "change the title")
            state.group.title = actions.modifyTitle.title
        }
        if actions.hasModifyDescription {
            try requireAccess(group.accessControl.attributes, "change the description")
            state.group.description_p = actions.modifyDescription.description_p
        }
        if actions.hasModifyAvatar {
            try requireAccess(group.accessControl.attributes, "change the avatar")
            state.group.avatar = actions.modifyAvatar.avatar
        }
        if actions.hasModifyDisappearingMessageTimer {
            try requireAccess(group.accessControl.attributes, "change the disappearing-message timer")
            state.group.disappearingMessagesTimer = actions.modifyDisappearingMessageTimer.timer
        }
        try checkAttributes(
            title: state.group.title, description: state.group.description_p, avatar: state.group.avatar,
            timer: state.group.disappearingMessagesTimer)

        if actions.hasModifyAttributesAccess {
            try requireAdministrator("change who edits the group's details")
            try checkMemberAccess(actions.modifyAttributesAccess.attributesAccess, "attributes")
            state.group.accessControl.attributes = actions.modifyAttributesAccess.attributesAccess
        }
        if actions.hasModifyMemberAccess {
            try requireAdministrator("change who adds members")
            try checkMemberAccess(actions.modifyMemberAccess.membersAccess, "members")
            state.group.accessControl.members = actions.modifyMemberAccess.membersAccess
        }
        if actions.hasModifyAddFromInviteLinkAccess {
            try requireAdministrator("change the invite link's access")
            try checkLinkAccess(actions.modifyAddFromInviteLinkAccess.addFromInviteLinkAccess)
            state.group.accessControl.addFromInviteLink = actions.modifyAddFromInviteLinkAccess.addFromInviteLinkAccess
        }
        if actions.hasModifyInviteLinkPassword {
            try requireAdministrator("change the invite link")
            try checkInviteLinkPassword(actions.modifyInviteLinkPassword.inviteLinkPassword)
            state.group.inviteLinkPassword = actions.modifyInviteLinkPassword.inviteLinkPassword
        }
        if actions.hasModifyAnnouncementsOnly {
            try requireAdministrator("make the group announcements-only")
            state.group.announcementsOnly = actions.modifyAnnouncementsOnly.announcementsOnly
        }

        for (position, action) in actions.addMembersPendingAdminApproval.enumerated() {
            guard linkPasswordMatches, group.accessControl.addFromInviteLink == .administrator else {
                throw .forbidden("the invite link is wrong, off or lets people join without approval")
            }
            let (userId, profileKey) = try presentations.verify(action.added.presentation, publicParams: caller.publicParams, now: now)
            guard userId == caller.userId else { throw .forbidden("asking to join is for oneself") }
            switch state.place(of: userId) {
            case nil: break
            case .banned: throw .forbidden("a banned person cannot ask to join")
            default: throw .invalid("already a member, invited or asking")
            }
            guard state.group.membersPendingAdminApproval.count < limits.maximumRequestingMembers else {
                throw .forbidden("the group has as many people asking to join as it takes")
            }
            var request = Signal_MemberPendingAdminApproval()
            request.userID = userId
            request.profileKey = profileKey
            request.timestamp = UInt64(max(0, now.timeIntervalSince1970 * 1000))
            state.group.membersPendingAdminApproval.append(request)
            state.index(userId, .requesting(state.group.membersPendingAdminApproval.count - 1))
            signed.addMembersPendingAdminApproval[position].added = request
        }

        for action in actions.deleteMembersPendingAdminApproval {
            guard case .requesting = state.place(of: action.deletedUserID) else { throw .invalid("denying a request nobody made") }
            if action.deletedUserID != caller.userId { try requireAdministrator("deny a request to join") }
            state.remove(action.deletedUserID)
        }

        for action in actions.promoteMembersPendingAdminApproval {
            try requireAdministrator("approve a request to join")
            try checkRole(action.role)
            guard case .requesting(let index) = state.place(of: action.userID) else { throw .invalid("approving a request nobody made") }
            let request = state.group.membersPendingAdminApproval[index]
            state.remove(action.userID)
            state.appendMember(request.userID, profileKey: request.profileKey, role: action.role, joinedAt: version)
        }

        for (position, action) in actions.addMembersBanned.enumerated() {
            try requireAdministrator("ban someone")
            guard (try? UuidCiphertext(contents: action.added.userID)) != nil else {
                throw .invalid("a banned member id is not a UuidCiphertext")
            }
            switch state.place(of: action.added.userID) {
            case .banned: throw .invalid("banning someone already banned")
            case .member: throw .invalid("ban a member after removing them, in the same change")
            case .invited, .requesting: state.remove(action.added.userID)
            case nil: break
            }
            guard state.group.membersBanned.count < limits.maximumBannedMembers else {
                throw .forbidden("the group has as many bans as it takes")
            }
            var banned = Signal_MemberBanned()
            banned.userID = action.added.userID
            banned.timestamp = UInt64(max(0, now.timeIntervalSince1970 * 1000))
            state.group.membersBanned.append(banned)
            state.index(banned.userID, .banned(state.group.membersBanned.count - 1))
            signed.addMembersBanned[position].added = banned
        }

        guard state.group.members.count + state.group.membersPendingProfileKey.count <= limits.maximumMembers else {
            throw .invalid("a group holds at most \(limits.maximumMembers) members and invitations")
        }
        if !state.group.members.isEmpty, !state.group.members.contains(where: { $0.role == .administrator }) {
            throw .invalid("a group with members keeps at least one administrator: make another member one first")
        }
        var unchanged = state.group
        unchanged.version = group.version
        guard unchanged != group else { throw .invalid("the change changes nothing") }
        return (state.group, signed)
    }

    // MARK: Checks

    /// How many profile key credential presentations `actions` hold (each is checked at ~2.5 ms).
    public static func presentationCount(_ actions: Signal_GroupChange.Actions) -> Int {
        actions.addMembers.count + actions.modifyMemberProfileKeys.count + actions.promoteMembersPendingProfileKey.count
            + actions.addMembersPendingAdminApproval.count
    }

    /// The actions only the caller's own entry may be the subject of (their profile key, accepting their invitation,
    /// asking to join) come at most once each: a second could only be the same person again.
    private func checkSelfActions(_ actions: Signal_GroupChange.Actions) throws(GroupRuleError) {
        guard actions.modifyMemberProfileKeys.count <= 1, actions.promoteMembersPendingProfileKey.count <= 1,
            actions.addMembersPendingAdminApproval.count <= 1, actions.addMembers.filter(\.joinFromInviteLink).count <= 1
        else { throw .invalid("a change updates one's own profile key, accepts an invitation or asks to join at most once") }
    }

    private func checkActionCount(_ actions: Signal_GroupChange.Actions) throws(GroupRuleError) {
        let count =
            actions.addMembers.count + actions.deleteMembers.count + actions.modifyMemberRoles.count
            + actions.modifyMemberProfileKeys.count + actions.addMembersPendingProfileKey.count
            + actions.deleteMembersPendingProfileKey.count + actions.promoteMembersPendingProfileKey.count
            + actions.addMembersPendingAdminApproval.count + actions.deleteMembersPendingAdminApproval.count
            + actions.promoteMembersPendingAdminApproval.count + actions.addMembersBanned.count + actions.deleteMembersBanned.count
            + actions.promoteMembersPendingPniAciProfileKey.count
        guard count <= limits.actionsPerChange else { throw .invalid("a change holds at most \(limits.actionsPerChange) actions") }
    }

    private func checkRole(_ role: Role) throws(GroupRuleError) {
        guard role == .default || role == .administrator else { throw .invalid("a member's role is DEFAULT or ADMINISTRATOR") }
    }

    private func checkMemberAccess(_ access: Access, _ what: String) throws(GroupRuleError) {
        guard access == .member || access == .administrator else { throw .invalid("\(what) access is MEMBER or ADMINISTRATOR") }
    }

    private func checkLinkAccess(_ access: Access) throws(GroupRuleError) {
        guard access == .any || access == .administrator || access == .unsatisfiable else {
            throw .invalid("invite link access is ANY, ADMINISTRATOR or UNSATISFIABLE")
        }
    }

    private func checkInviteLinkPassword(_ password: Data) throws(GroupRuleError) {
        guard password.isEmpty || password.count == Self.inviteLinkPasswordBytes else {
            throw .invalid("an invite link password is \(Self.inviteLinkPasswordBytes) bytes")
        }
    }

    private func checkAttributes(title: Data, description: Data, avatar: String, timer: Data) throws(GroupRuleError) {
        guard title.count <= limits.titleBytes else { throw .invalid("an encrypted title is at most \(limits.titleBytes) bytes") }
        guard description.count <= limits.descriptionBytes else {
            throw .invalid("an encrypted description is at most \(limits.descriptionBytes) bytes")
        }
        guard avatar.utf8.count <= limits.avatarCharacters else { throw .invalid("an avatar is at most \(limits.avatarCharacters) bytes") }
        guard timer.count <= limits.timerBytes else { throw .invalid("an encrypted timer is at most \(limits.timerBytes) bytes") }
    }

    /// Whether a presented invite link password is the group's (in constant time; an empty one never matches).
    static func matches(_ expected: Data, _ presented: Data) -> Bool {
        guard !expected.isEmpty, expected.count == presented.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(expected, presented) { difference |= a ^ b }
        return difference == 0
    }

    /// Checks an invitation and makes the stored form (inviter and time set).
    func invitation(_ member: Signal_Member, by inviter: Data, now: Date) throws(GroupRuleError) -> Signal_MemberPendingProfileKey {
        try checkRole(member.role)
        guard (try? UuidCiphertext(contents: member.userID)) != nil else { throw .invalid("an invited member id is not a UuidCiphertext") }
        var invited = Signal_Member()
        invited.userID = member.userID
        invited.role = member.role
        var invitation = Signal_MemberPendingProfileKey()
        invitation.member = invited
        invitation.addedByUserID = inviter
        invitation.timestamp = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        return invitation
    }
}
