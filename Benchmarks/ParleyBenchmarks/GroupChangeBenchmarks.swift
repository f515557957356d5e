import Benchmark
import Foundation
import ParleyAPI
import ParleyProtocol
import ParleyServer

/// What parley-server does per change of a 1,000-member server-stored group, short of storage and endorsements: read
/// the stored state, apply the actions under the access control, write the state and sign the change. One title change
/// (no proof to check) and one member added (one profile key credential presentation verified).
func groupChangeBenchmarks(
    server: ServerSecretParams, group: GroupSecretParams, members: [Aci], memberCiphertexts: [UuidCiphertext], newMember: Data
) {
    let cipher = ClientZkGroupCipher(groupSecretParams: group)
    var state = Signal_Group()
    state.publicKey = try! group.getPublicParams().serialize()
    state.version = 7
    state.accessControl = .with {
        $0.attributes = .member
        $0.members = .member
        $0.addFromInviteLink = .unsatisfiable
    }
    state.members = zip(members, memberCiphertexts).enumerated().map { index, pair in
        Signal_Member.with {
            $0.userID = pair.1.serialize()
            $0.profileKey = try! cipher.encryptProfileKey(
                profileKey: ProfileKey(contents: Data(repeating: UInt8(truncatingIfNeeded: index), count: 32)), userId: pair.0
            ).serialize()
            $0.role = index == 0 ? .administrator : .default
            $0.joinedAtVersion = 1
        }
    }
    let stored: [UInt8] = try! state.serializedBytes()
    let caller = GroupCaller(
        publicParams: try! group.getPublicParams(), groupId: Array(try! group.getPublicParams().getGroupIdentifier().serialize()),
        userId: memberCiphertexts[0].serialize())
    let applicator = GroupChangeApplicator(limits: GroupLimits(), presentations: MemberPresentationVerifier(secretParams: server))
    let title = try! cipher.encryptBlob(plaintext: Data("a new title".utf8))
    let now = Date()

    func applyOnce(_ actions: Signal_GroupChange.Actions) {
        let current = try! Signal_Group(serializedBytes: stored)
        let (changed, signed) = try! applicator.apply(actions, to: current, caller: caller, inviteLinkPassword: nil, now: now)
        let state: [UInt8] = try! changed.serializedBytes()
        let signedBytes: Data = try! signed.serializedBytes()
        blackHole((state, try! server.sign(message: signedBytes)))
    }

    Benchmark("group_change_title_1000") { benchmark in
        var actions = Signal_GroupChange.Actions()
        actions.version = 8
        actions.modifyTitle.title = title
        for _ in benchmark.scaledIterations { applyOnce(actions) }
    }

    Benchmark("group_change_add_member_1000") { benchmark in
        var actions = Signal_GroupChange.Actions()
        actions.version = 8
        actions.addMembers = [
            .with {
                $0.added = .with {
                    $0.presentation = newMember
                    $0.role = .default
                }
            }
        ]
        for _ in benchmark.scaledIterations { applyOnce(actions) }
    }
}
