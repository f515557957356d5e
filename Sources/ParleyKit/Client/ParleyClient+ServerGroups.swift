import Foundation
import ParleyProtocol

/// The verbs of server-stored groups: the server holds each group and enforces who may change it; every change is made
/// there first, then the members are told 1:1 (their devices read the group from the server), and messages go out with
/// Sender Keys to the members the server lists.
extension ParleyClient {
    /// Creates a server-stored group titled `title` of this account (its administrator) and `members` (account ids or
    /// usernames): those whose profile key this device knows become members at once, the others are invited and join
    /// when their device hears of it. Returns its id (32 bytes) with the report of the notice to the members.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` for an empty or over-long title or too many members;
    ///   ``ParleyError/Server`` when a username is unknown or the server refuses.
    public func createServerGroup(title: String, members: [String], attempt: DeliveryAttempt = .dueJobs) async throws -> (
        id: Data, report: SendReport
    ) {
        let accountIds = try await resolve(people: members)
        let (conversationId, _) = try await serverGroups.create(title: title, members: accountIds)
        let group = try database.read { db in try ConversationsTable.group(conversationId: conversationId, db) }
        guard let group else { throw ParleyError.invalidArgument("the new group was not recorded") }
        let details = try serverGroups.details(group.id)
        let notice = try sender.announceServerGroupChange(
            group.id, revision: group.revision, signedChange: nil, audience: details.members + details.invited)
        return (group.id, try await settle(sentAt: [notice], groupChanges: true, attempt: attempt))
    }

    /// The server-stored group `groupId` as this device last read it (members, roles, invitations, requests, bans,
    /// permissions, the invite link).
    /// - Throws: ``ParleyError/invalidArgument(_:)`` for a group that is not server-stored.
    public func serverGroupDetails(_ groupId: Data) throws -> ServerGroupDetails {
        try serverGroups.details(groupId)
    }

    /// Reads server-stored group `groupId` from the server again and records it here.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` when the group is not server-stored, or the server no longer shows
    ///   it to this account (removed: the group is then recorded as left).
    @discardableResult
    public func refreshServerGroup(_ groupId: Data) async throws -> ServerGroupDetails {
        let masterKey = try database.read { db in try ConversationsTable.group(id: groupId, db)?.masterKey }
        guard let masterKey else { throw ParleyError.invalidArgument("no server-stored group \(GroupID(groupId))") }
        guard try await serverGroups.refresh(masterKey: masterKey, author: nil) else {
            throw ParleyError.invalidArgument("this account is no longer a member of group \(GroupID(groupId))")
        }
        return try serverGroups.details(groupId)
    }

    /// Makes `person` an administrator of server-stored group `groupId`, or with `revoke` an ordinary member.
    @discardableResult
    public func setGroupAdministrator(_ groupId: Data, person: String, revoke: Bool = false, attempt: DeliveryAttempt = .dueJobs)
        async throws -> SendReport
    {
        let accountId = try await resolve(person)
        return try await changeServerGroup(groupId, attempt: attempt) { try $0.setAdministrator(accountId, revoke: revoke) }
    }

    /// Sets who may add members, edit the group's details and send messages in server-stored group `groupId` (`nil`:
    /// unchanged).
    @discardableResult
    public func setGroupPermissions(
        _ groupId: Data, addMembers: ServerGroupDetails.Access? = nil, editDetails: ServerGroupDetails.Access? = nil,
        sendMessages: ServerGroupDetails.Access? = nil, attempt: DeliveryAttempt = .dueJobs
    ) async throws -> SendReport {
        try await changeServerGroup(groupId, attempt: attempt) {
            $0.setPermissions(addMembers: addMembers, editDetails: editDetails, sendMessages: sendMessages)
        }
    }

    /// Sets how server-stored group `groupId`'s invite link admits people (`reset`: a new link, the old one stops
    /// working); returns the link when it is on.
    public func setGroupLink(
        _ groupId: Data, access: ServerGroupDetails.LinkAccess, reset: Bool = false, attempt: DeliveryAttempt = .dueJobs
    )
        async throws -> (link: String?, report: SendReport)
    {
        let report = try await changeServerGroup(groupId, attempt: attempt) { $0.setLink(access, reset: reset) }
        return (try serverGroups.details(groupId).inviteLink, report)
    }

    /// Approves `person`'s request to join server-stored group `groupId`, or denies it.
    @discardableResult
    public func answerGroupRequest(_ groupId: Data, person: String, approve: Bool, attempt: DeliveryAttempt = .dueJobs) async throws
        -> SendReport
    {
        let accountId = try await resolve(person)
        return try await changeServerGroup(groupId, attempt: attempt, alsoTell: [accountId]) {
            try $0.answerRequest(of: accountId, approve: approve)
        }
    }

    /// Bans `person` from server-stored group `groupId` (removing them), or with `lift` lifts the ban.
    @discardableResult
    public func banFromGroup(_ groupId: Data, person: String, lift: Bool = false, attempt: DeliveryAttempt = .dueJobs) async throws
        -> SendReport
    {
        let accountId = try await resolve(person)
        return try await changeServerGroup(groupId, attempt: attempt, alsoTell: [accountId]) { try $0.ban(accountId, lift: lift) }
    }

    /// Joins the group of invite link `link` — or, when the link needs an administrator's approval, asks to. Returns the
    /// group's id and whether this account is a member now (`false`: waiting for approval).
    public func joinGroup(link: String, attempt: DeliveryAttempt = .dueJobs) async throws -> (id: Data, joined: Bool, report: SendReport) {
        let invite = try GroupInviteLink(text: link)
        let (conversationId, signedChange, revision) = try await serverGroups.join(invite)
        let id = try ServerGroups.secret(invite.masterKey).getPublicParams().getGroupIdentifier().serialize()
        guard conversationId != nil else { return (id, false, SendReport(status: .sent, jobs: JobReport())) }
        let details = try serverGroups.details(id)
        let notice = try sender.announceServerGroupChange(
            id, revision: revision, signedChange: signedChange, audience: details.members + details.invited)
        return (id, true, try await settle(sentAt: [notice], groupChanges: true, attempt: attempt))
    }

    /// Accepts the invitation to server-stored group `groupId` (one from someone this account has not written to is not
    /// accepted by itself: accepting puts this account's profile key in the group).
    @discardableResult
    public func acceptGroupInvitation(_ groupId: Data, attempt: DeliveryAttempt = .dueJobs) async throws -> SendReport {
        let masterKey = try database.read { db in try ConversationsTable.group(id: groupId, db)?.masterKey }
        guard let masterKey else { throw ParleyError.invalidArgument("no server-stored group \(GroupID(groupId))") }
        guard try await serverGroups.refresh(masterKey: masterKey, author: nil, acceptInvitation: true) else {
            throw ParleyError.invalidArgument("this account is no longer invited to group \(GroupID(groupId))")
        }
        let details = try serverGroups.details(groupId)
        let notice = try sender.announceServerGroupChange(
            groupId, revision: details.revision, signedChange: nil, audience: details.members + details.invited)
        return try await settle(sentAt: [notice], groupChanges: true, attempt: attempt)
    }

    /// Makes a change of server-stored group `groupId` on the server (again from the new state when another change got
    /// there first), then tells every member before and after it, and those of `alsoTell` who were in the group before
    /// (a member, invited or asking): the notice carries the master key, which nobody outside may learn.
    func changeServerGroup(
        _ groupId: Data, attempt: DeliveryAttempt, alsoTell: [String] = [], _ build: (inout ServerGroupChange) async throws -> Void
    ) async throws -> SendReport {
        let before = (try? serverGroups.details(groupId)).map { $0.members + $0.invited + $0.requesting } ?? []
        guard let (signedChange, revision) = try await serverGroups.change(groupId, build) else {
            return SendReport(status: .sent, jobs: JobReport())
        }
        let after = try serverGroups.details(groupId)
        let notice = try sender.announceServerGroupChange(
            groupId, revision: revision, signedChange: signedChange,
            audience: before + after.members + after.invited + alsoTell.filter(before.contains))
        return try await settle(sentAt: [notice], groupChanges: true, attempt: attempt)
    }
}
