import Foundation
import ParleyAPI
import ParleyProtocol
import Testing

@_spi(Inspection) @testable import ParleyKit

/// Server-stored groups from ParleyKit, against a real in-process server: the group lives on the server, which
/// enforces its access control; members hear of changes 1:1 and read the group from the server; messages go with
/// Sender Keys to the members the server lists.
@Suite(.serialized) struct ServerStoredGroupClientTests {
    typealias People = ConversationFeatureTests.People

    static func texts(_ client: ParleyClient, _ groupId: Data) throws -> [String] {
        try GroupConversationTests.groupTexts(client, groupId)
    }

    /// Bob writes to Alice first, so that Alice knows his profile key (his messages carry it) and can add him as a member.
    static func introduceBob(_ p: People) async throws {
        try p.bobPhone.sender.enqueue(body: "hi", to: p.aliceId)
        _ = try await p.bobPhone.runJobs()
        _ = try await p.alice.receiveOnce()
        _ = try await p.bobLaptop.receiveOnce()
    }

    @Test func aServerStoredGroupReachesEveryMemberAndInviteesJoin() async throws {
        try await TestServer.run { server in
            let p = try await ConversationFeatureTests.people(server)
            try await Self.introduceBob(p)
            let (groupId, report) = try await p.alice.createServerGroup(title: "Trail crew", members: [p.bobId, "carol"])
            #expect(groupId.count == 32 && report.status == .sent)
            // Bob (known) is a member at once; Carol (whose profile key Alice has never seen) is invited.
            var details = try p.alice.serverGroupDetails(groupId)
            #expect(Set(details.members) == [p.aliceId, p.bobId] && details.invited == [p.carolId])
            #expect(details.administrators == [p.aliceId] && details.title == "Trail crew")

            // Each device hears of it 1:1 and reads it from the server. Carol has never written to Alice: her device
            // does not accept by itself (accepting puts her profile key in the group); she accepts.
            for client in [p.bobPhone, p.bobLaptop, p.carol] { _ = try await client.receiveOnce() }
            for client in [p.bobPhone, p.bobLaptop, p.carol] {
                let group = try #require(try client.group(id: groupId))
                #expect(group.title == "Trail crew" && group.serverStored && !group.left)
            }
            #expect(try p.carol.serverGroupDetails(groupId).invited == [p.carolId])
            _ = try await p.carol.acceptGroupInvitation(groupId)
            details = try p.carol.serverGroupDetails(groupId)
            #expect(Set(details.members) == [p.aliceId, p.bobId, p.carolId] && details.invited.isEmpty)

            // Messages go with Sender Keys to the members the server lists.
            try p.carol.sender.enqueue(body: "count me in", toGroup: groupId)
            _ = try await p.carol.runJobs()
            for client in [p.alice, p.bobPhone, p.bobLaptop] { _ = try await client.receiveOnce() }
            for client in [p.alice, p.bobPhone, p.bobLaptop] { #expect(try Self.texts(client, groupId) == ["count me in"]) }
            #expect(Set(try #require(try p.alice.group(id: groupId)).members) == [p.aliceId, p.bobId, p.carolId])
        }
    }

    @Test func theServerRefusesWhatAdministratorsReserveAndARemovedMemberIsOut() async throws {
        try await TestServer.run { server in
            let p = try await ConversationFeatureTests.people(server)
            try await Self.introduceBob(p)
            let (groupId, _) = try await p.alice.createServerGroup(title: "Board", members: [p.bobId])
            _ = try await p.alice.setGroupPermissions(groupId, editDetails: .admins)
            for client in [p.bobPhone, p.bobLaptop] { _ = try await client.receiveOnce() }
            #expect(try p.bobPhone.serverGroupDetails(groupId).editDetails == .admins)

            // Bob's client asks; the server refuses (not only Alice's client would).
            let refusal = await #expect(throws: ParleyError.self) { try await p.bobPhone.updateGroup(groupId, title: "Bob's board") }
            #expect(refusal?.server?.status == 403)
            // Made an administrator, he may.
            _ = try await p.alice.setGroupAdministrator(groupId, person: "bob")
            _ = try await p.bobPhone.receiveOnce()
            _ = try await p.bobPhone.updateGroup(groupId, title: "Bob's board")
            _ = try await p.alice.receiveOnce()
            #expect(try p.alice.group(id: groupId)?.title == "Bob's board")

            // Removed, Bob's devices learn it from the server and stop; what Alice sends next does not reach them.
            _ = try await p.alice.updateGroup(groupId, removing: [p.bobId])
            for client in [p.bobPhone, p.bobLaptop] { _ = try await client.receiveOnce() }
            #expect(try p.bobPhone.group(id: groupId)?.left == true)
            try p.alice.sender.enqueue(body: "after you left", toGroup: groupId)
            _ = try await p.alice.runJobs()
            for client in [p.bobPhone, p.bobLaptop] {
                _ = try await client.receiveOnce()
                #expect(!(try Self.texts(client, groupId)).contains("after you left"))
            }
            await #expect(throws: ParleyError.self) { try await p.bobPhone.refreshServerGroup(groupId).members.count }
        }
    }

    @Test func aPersonWithTheLinkJoinsOrAsksAndIsApproved() async throws {
        try await TestServer.run { server in
            let p = try await ConversationFeatureTests.people(server)
            let dave = try server.client("dave")
            let daveId = try await dave.accounts.register(username: "dave").accountId
            let (groupId, _) = try await p.alice.createServerGroup(title: "Open house", members: [])
            let (link, _) = try await p.alice.setGroupLink(groupId, access: .open)
            let invite = try #require(link)
            #expect(invite.hasPrefix(GroupInviteLink.prefix))

            let (joinedId, joined, _) = try await p.carol.joinGroup(link: invite)
            #expect(joinedId == groupId && joined)
            _ = try await p.alice.receiveOnce()
            #expect(Set(try #require(try p.alice.group(id: groupId)).members) == [p.aliceId, p.carolId])

            // With approval, Dave asks, Alice approves, Dave's device hears and is in.
            _ = try await p.alice.setGroupLink(groupId, access: .approval)
            let (_, daveJoined, _) = try await dave.joinGroup(link: invite)
            #expect(!daveJoined)
            #expect(try await p.alice.refreshServerGroup(groupId).requesting == [daveId])
            _ = try await p.alice.answerGroupRequest(groupId, person: daveId, approve: true)
            _ = try await dave.receiveOnce()
            #expect(try dave.group(id: groupId).map { !$0.left && $0.members.contains(daveId) } == true)

            // A reset link stops working.
            _ = try await p.alice.setGroupLink(groupId, access: .open, reset: true)
            await #expect(throws: ParleyError.self) { try await p.bobPhone.joinGroup(link: invite) }
        }
    }

    @Test func twoAdministratorsChangingAtOnceBothLand() async throws {
        try await TestServer.run { server in
            let p = try await ConversationFeatureTests.people(server)
            try await Self.introduceBob(p)
            let (groupId, _) = try await p.alice.createServerGroup(title: "Two chairs", members: [p.bobId])
            _ = try await p.alice.setGroupAdministrator(groupId, person: p.bobId)
            _ = try await p.bobPhone.receiveOnce()
            async let renamed = p.alice.updateGroup(groupId, title: "One table")
            async let added = p.bobPhone.updateGroup(groupId, adding: [p.carolId])
            _ = try await (renamed, added)
            let alice = try await p.alice.refreshServerGroup(groupId)
            let bob = try await p.bobPhone.refreshServerGroup(groupId)
            #expect(alice == bob)
            #expect(alice.title == "One table" && alice.invited == [p.carolId] && alice.revision == 3)
        }
    }
}
