import Foundation
import FuzzHarness
import ParleyAPI
import ParleyProtocol
import SwiftProtobuf

@testable import ParleyServer

/// A server-stored group's rules on a change a member sends: the input is a `GroupChange.Actions` protobuf, applied by
/// `GroupChangeApplicator` to a group of four (the caller its administrator) for the next revision. The change is
/// refused with a typed error or applied; an applied one moves the group one revision on, names the caller as its
/// author, keeps every person in at most one list, stays within the bounds and leaves an administrator.
enum GroupChangeTarget {
    typealias F = GroupChangeFixtures

    static let target = FuzzTarget(
        run: { input in
            guard var actions = try? Signal_GroupChange.Actions(serializedBytes: input) else { return }
            actions.version = F.group.version + 1
            // The server sets the author itself; a 16-byte one here stands for the invite link password the caller presents.
            let password = actions.sourceUuid.count == 16 ? actions.sourceUuid : nil
            guard
                let (changed, signed) = try? F.applicator.apply(
                    actions, to: F.group, caller: F.caller, inviteLinkPassword: password, now: Date())
            else { return }
            invariant(
                changed.version == F.group.version + 1 && signed.version == changed.version, "an applied change makes the next revision")
            invariant(signed.sourceUuid == F.caller.userId, "the author of an applied change is its caller")
            let people =
                changed.members.map(\.userID) + changed.membersPendingProfileKey.map(\.member.userID)
                + changed.membersPendingAdminApproval.map(\.userID) + changed.membersBanned.map(\.userID)
            invariant(Set(people).count == people.count, "nobody is in two of a group's lists")
            invariant(
                changed.members.count + changed.membersPendingProfileKey.count <= GroupLimits().maximumMembers,
                "a group stays within its size")
            invariant(
                changed.members.isEmpty || changed.members.contains { $0.role == .administrator },
                "a group with members keeps an administrator")
            invariant(changed.members.allSatisfy { $0.presentation.isEmpty }, "no presentation is stored")
        },
        seeds: {
            let cipher = ClientZkGroupCipher(groupSecretParams: F.secret)
            let title = try! cipher.encryptBlob(plaintext: Data("title".utf8))
            let changes: [Signal_GroupChange.Actions] = [
                .with { $0.modifyTitle.title = title },
                .with { $0.deleteMembers = [.with { $0.deletedUserID = F.ids[2] }] },
                .with {
                    $0.modifyMemberRoles = [
                        .with {
                            $0.userID = F.ids[1]
                            $0.role = .administrator
                        }
                    ]
                },
                .with {
                    $0.addMembersPendingProfileKey = [
                        .with {
                            $0.added.member = .with {
                                $0.userID = F.ids[4]
                                $0.role = .default
                            }
                        }
                    ]
                },
                .with { $0.deleteMembersPendingProfileKey = [.with { $0.deletedUserID = F.ids[3] }] },
                .with { $0.addMembersBanned = [.with { $0.added.userID = F.ids[4] }] },
                .with {
                    $0.modifyAddFromInviteLinkAccess.addFromInviteLinkAccess = .administrator
                    $0.modifyInviteLinkPassword.inviteLinkPassword = Data(repeating: 1, count: 16)
                    $0.modifyAnnouncementsOnly.announcementsOnly = true
                },
            ]
            return changes.compactMap { try? $0.serializedBytes() }
        })
}

/// The group and keys every input meets, made once (statics LeakSanitizer is told about: Fuzz/lsan.supp).
enum GroupChangeFixtures {
    static let server = GroupCredentialIssuer(seed: Array(repeating: 5, count: 32))
    static let secret = try! GroupSecretParams.deriveFromMasterKey(
        groupMasterKey: try! GroupMasterKey(contents: Data(repeating: 4, count: 32)))
    static let ids: [Data] = (0..<5).map { index in
        let uuid = UUID(uuid: (UInt8(index), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
        return try! ClientZkGroupCipher(groupSecretParams: secret).encrypt(Aci(fromUUID: uuid)).serialize()
    }
    static let group: Signal_Group = {
        var group = Signal_Group()
        group.publicKey = try! secret.getPublicParams().serialize()
        group.version = 3
        group.accessControl = .with {
            $0.attributes = .member
            $0.members = .member
            $0.addFromInviteLink = .any
        }
        group.inviteLinkPassword = Data(repeating: 8, count: 16)
        group.members = ids[0..<3].enumerated().map { index, id in
            Signal_Member.with {
                $0.userID = id
                $0.role = index == 0 ? .administrator : .default
                $0.profileKey = Data(repeating: UInt8(index), count: 65)
            }
        }
        group.membersPendingProfileKey = [
            .with {
                $0.member = .with {
                    $0.userID = ids[3]
                    $0.role = .default
                }
            }
        ]
        return group
    }()
    static let applicator = GroupChangeApplicator(
        limits: GroupLimits(), presentations: MemberPresentationVerifier(secretParams: server.secretParams))
    static let caller = GroupCaller(
        publicParams: try! secret.getPublicParams(), groupId: Array(try! secret.getPublicParams().getGroupIdentifier().serialize()),
        userId: ids[0])
}
