import Foundation
import ParleyAPI

/// A group being changed, with an index from member id to the list holding it, so each action finds its person in
/// constant time however large the group.
struct GroupState {
    /// Where a member id is held.
    enum Place: Equatable {
        case member(Int)
        case invited(Int)
        case requesting(Int)
        case banned(Int)
    }

    var group: Signal_Group
    private var places: [Data: Place] = [:]

    init(_ group: Signal_Group) {
        self.group = group
        reindex()
    }

    func place(of userId: Data) -> Place? { places[userId] }

    /// The role of a full member; `nil` for anyone else.
    func role(of userId: Data) -> Signal_Member.Role? {
        guard case .member(let index) = places[userId] else { return nil }
        return group.members[index].role
    }

    mutating func index(_ userId: Data, _ place: Place) { places[userId] = place }

    mutating func unindex(_ userId: Data) { places[userId] = nil }

    /// Removes `userId` from whichever list holds it (not from the banned list).
    mutating func remove(_ userId: Data) {
        switch places[userId] {
        case .member(let index): group.members.remove(at: index)
        case .invited(let index): group.membersPendingProfileKey.remove(at: index)
        case .requesting(let index): group.membersPendingAdminApproval.remove(at: index)
        case .banned, nil: return
        }
        reindex()
    }

    /// Adds a full member and returns it as stored.
    @discardableResult
    mutating func appendMember(_ userId: Data, profileKey: Data, role: Signal_Member.Role, joinedAt version: UInt32) -> Signal_Member {
        var member = Signal_Member()
        member.userID = userId
        member.profileKey = profileKey
        member.role = role
        member.joinedAtVersion = version
        group.members.append(member)
        places[userId] = .member(group.members.count - 1)
        return member
    }

    /// Adds an invitation for `member` by `inviter`, checked.
    @discardableResult
    mutating func appendInvitation(_ member: Signal_Member, by inviter: Data, now: Date, applicator: GroupChangeApplicator)
        throws(GroupRuleError) -> Signal_MemberPendingProfileKey
    {
        let invitation = try applicator.invitation(member, by: inviter, now: now)
        switch places[member.userID] {
        case nil: break
        case .banned: throw .forbidden("inviting someone who is banned")
        default: throw .invalid("inviting someone already a member, invited or asking")
        }
        group.membersPendingProfileKey.append(invitation)
        places[member.userID] = .invited(group.membersPendingProfileKey.count - 1)
        return invitation
    }

    /// Rebuilds the index from the lists.
    mutating func reindex() {
        places.removeAll(keepingCapacity: true)
        for (index, member) in group.members.enumerated() { places[member.userID] = .member(index) }
        for (index, invited) in group.membersPendingProfileKey.enumerated() { places[invited.member.userID] = .invited(index) }
        for (index, request) in group.membersPendingAdminApproval.enumerated() { places[request.userID] = .requesting(index) }
        for (index, banned) in group.membersBanned.enumerated() { places[banned.userID] = .banned(index) }
    }
}
