import Foundation
import ParleyAPI
import ParleyProtocol
import SwiftProtobuf

/// Server-stored groups: create, read, change (ordered by revision, each change signed), the change log and the view
/// behind an invite link. The one implementation behind the REST routes; it sees only what members encrypted.
public struct GroupService: Sendable {
    let store: any GroupStore
    let issuer: GroupCredentialIssuer
    let applicator: GroupChangeApplicator
    let limits: GroupLimits
    let endorsements = EndorsementCache()

    /// A service over `store`, signing and endorsing with `issuer`'s keys.
    public init(store: any GroupStore, issuer: GroupCredentialIssuer, limits: GroupLimits) {
        self.store = store
        self.issuer = issuer
        self.limits = limits
        applicator = GroupChangeApplicator(limits: limits, presentations: MemberPresentationVerifier(secretParams: issuer.secretParams))
    }

    /// The change epoch of the actions this server understands (Signal's 5: bans and PNI promotions included).
    static let changeEpoch: UInt32 = 5

    /// Creates the group `body` (a serialized `Group`) for `caller`, who must be among its administrators. `charge` is
    /// told how many presentations the request holds before any is checked (and may refuse).
    /// - Throws: ``GroupRuleError``; `.invalid` also when a group with these params exists.
    public func create(_ body: [UInt8], caller: GroupCaller, now: Date, charge: (Int) throws -> Void = { _ in }) async throws
        -> Signal_GroupResponse
    {
        let proposed: Signal_Group = try Self.parse(body, "Group")
        // Each member's presentation is ~2.5 ms to check: counted before any is (the caller's bucket).
        try charge(proposed.members.count)
        let group = try applicator.newGroup(proposed, caller: caller, now: now)
        var actions = Signal_GroupChange.Actions()
        actions.sourceUuid = caller.userId
        actions.version = 0
        let change = try sign(actions)
        let stored = StoredGroup(id: caller.groupId, version: 0, state: try Self.bytes(group), updated: Self.milliseconds(now))
        guard try await store.createGroup(stored, change: try Self.bytes(change)) else {
            throw GroupRuleError.invalid("a group with these public params already exists")
        }
        return Signal_GroupResponse.with {
            $0.group = group
            $0.groupSendCredentialResponse = endorsements(for: group, caller: caller, now: now)
        }
    }

    /// The group as stored, for a member or an invited person.
    /// - Throws: ``GroupRuleError/notFound`` or ``GroupRuleError/forbidden(_:)`` for anyone else.
    public func group(caller: GroupCaller, now: Date) async throws -> Signal_GroupResponse {
        let (_, group) = try await load(caller)
        switch GroupState(group).place(of: caller.userId) {
        case .member, .invited: break
        default: throw GroupRuleError.forbidden("only members and invited people read the group")
        }
        return Signal_GroupResponse.with {
            $0.group = group
            $0.groupSendCredentialResponse = endorsements(for: group, caller: caller, now: now)
        }
    }

    /// Applies `body` (serialized `GroupChange.Actions`) for `caller`, with `inviteLinkPassword` when joining by link;
    /// `charge` as for ``create(_:caller:now:charge:)``.
    /// - Throws: ``GroupRuleError/staleRevision(current:)`` when the change was made from an older revision or another
    ///   change landed first; other ``GroupRuleError``s for what the rules refuse.
    public func modify(
        _ body: [UInt8], caller: GroupCaller, inviteLinkPassword: Data?, now: Date, charge: (Int) throws -> Void = { _ in }
    ) async throws -> Signal_GroupChangeResponse {
        let actions: Signal_GroupChange.Actions = try Self.parse(body, "GroupChange.Actions")
        try charge(GroupChangeApplicator.presentationCount(actions))
        let (stored, group) = try await load(caller)
        let (changed, signedActions) = try applicator.apply(
            actions, to: group, caller: caller, inviteLinkPassword: inviteLinkPassword, now: now)
        let change = try sign(signedActions)
        let updated = StoredGroup(id: stored.id, version: changed.version, state: try Self.bytes(changed), updated: Self.milliseconds(now))
        guard try await store.updateGroup(updated, change: try Self.bytes(change)) else {
            // Another change from the same revision landed between the read and the write.
            throw GroupRuleError.staleRevision(current: (try await store.group(id: stored.id))?.version ?? stored.version)
        }
        return Signal_GroupChangeResponse.with {
            $0.groupChange = change
            $0.groupSendCredentialResponse = endorsements(for: changed, caller: caller, now: now)
        }
    }

    /// A page of the change log from revision `from`, for a member, never from before the revision they joined at;
    /// with the state at the first and last entry when asked. `more` says whether later entries remain.
    public func changes(caller: GroupCaller, from: UInt32, includeFirstState: Bool, includeLastState: Bool, now: Date) async throws
        -> (changes: Signal_GroupChanges, last: UInt32, current: UInt32)
    {
        let (stored, group) = try await load(caller)
        guard case .member(let index) = GroupState(group).place(of: caller.userId) else {
            throw GroupRuleError.forbidden("only members read the group's changes")
        }
        let joined = group.members[index].joinedAtVersion
        guard from >= joined else { throw GroupRuleError.forbidden("the changes before revision \(joined) are from before you joined") }
        guard from <= stored.version else { throw GroupRuleError.invalid("the group is at revision \(stored.version)") }
        let entries = try await store.groupChanges(id: caller.groupId, from: from, limit: limits.changesPerPage)
        var answer = Signal_GroupChanges()
        for (position, entry) in entries.enumerated() {
            var item = Signal_GroupChanges.GroupChangeState()
            item.groupChange = try Self.parse(entry.change, "stored GroupChange")
            if (position == 0 && includeFirstState) || (position == entries.count - 1 && includeLastState) {
                item.groupState = try Self.parse(entry.state, "stored Group")
            }
            answer.groupChanges.append(item)
        }
        answer.groupSendCredentialResponse = endorsements(for: group, caller: caller, now: now)
        return (answer, entries.last?.version ?? from, stored.version)
    }

    /// What the invite link with `password` shows `caller`: title, description, avatar, member count, whether joining
    /// needs approval, and whether they are already asking.
    /// - Throws: ``GroupRuleError/forbidden(_:)`` when the link is off, the password wrong or the caller banned.
    public func joinInfo(caller: GroupCaller, password: Data) async throws -> Signal_GroupJoinInfo {
        let (_, group) = try await load(caller)
        let state = GroupState(group)
        if case .banned = state.place(of: caller.userId) { throw GroupRuleError.forbidden("you are banned from this group") }
        guard group.accessControl.addFromInviteLink == .any || group.accessControl.addFromInviteLink == .administrator,
            GroupChangeApplicator.matches(group.inviteLinkPassword, password)
        else { throw GroupRuleError.forbidden("the invite link is wrong or off") }
        return Signal_GroupJoinInfo.with {
            $0.publicKey = group.publicKey
            $0.title = group.title
            $0.description_p = group.description_p
            $0.avatar = group.avatar
            $0.memberCount = UInt32(group.members.count)
            $0.addFromInviteLink = group.accessControl.addFromInviteLink
            $0.version = group.version
            if case .requesting = state.place(of: caller.userId) { $0.pendingAdminApproval = true }
            $0.pendingAdminApprovalFull = group.membersPendingAdminApproval.count >= limits.maximumRequestingMembers
        }
    }

    // MARK: Helpers

    private func load(_ caller: GroupCaller) async throws -> (StoredGroup, Signal_Group) {
        guard let stored = try await store.group(id: caller.groupId) else { throw GroupRuleError.notFound }
        return (stored, try Self.parse(stored.state, "stored Group"))
    }

    private func sign(_ actions: Signal_GroupChange.Actions) throws -> Signal_GroupChange {
        let bytes = try actions.serializedData()
        let signature = try issuer.secretParams.sign(message: bytes)
        return Signal_GroupChange.with {
            $0.actions = bytes
            $0.serverSignature = signature.serialize()
            $0.changeEpoch = Self.changeEpoch
        }
    }

    /// Group send endorsements for the full members, when the caller is one: good until the end of tomorrow (UTC);
    /// issued once per revision and expiration (``EndorsementCache``).
    private func endorsements(for group: Signal_Group, caller: GroupCaller, now: Date) -> Data {
        guard GroupState(group).role(of: caller.userId) != nil else { return Data() }
        let day: UInt64 = 86_400
        let expiration = (UInt64(max(0, now.timeIntervalSince1970)) / day + 2) * day
        return endorsements.response(for: .init(groupId: caller.groupId, version: group.version, expiration: expiration)) {
            let members = group.members.compactMap { try? UuidCiphertext(contents: $0.userID) }
            let keyPair = GroupSendDerivedKeyPair.forExpiration(
                Date(timeIntervalSince1970: TimeInterval(expiration)), params: issuer.secretParams)
            return GroupSendEndorsementsResponse.issue(groupMembers: members, keyPair: keyPair).serialize()
        }
    }

    /// `bytes` as `M`, fields this server does not know dropped: nothing a client adds beyond them is stored or signed.
    static func parse<M: SwiftProtobuf.Message>(_ bytes: [UInt8], _ what: String) throws(GroupRuleError) -> M {
        var options = BinaryDecodingOptions()
        options.discardUnknownFields = true
        do {
            return try M(serializedBytes: bytes, options: options)
        } catch {
            throw .invalid("the body is not a \(what) protobuf")
        }
    }

    static func bytes(_ message: some SwiftProtobuf.Message) throws -> [UInt8] { try message.serializedBytes() }

    static func milliseconds(_ date: Date) -> UInt64 { UInt64(max(0, date.timeIntervalSince1970 * 1000)) }
}
