import Foundation
import GRDB
import ParleyAPI
import ParleyProtocol
import ParleyServer
import Testing

@_spi(Inspection) @testable import ParleyKit

/// Groups with Sender Keys end to end through a real in-process server: three accounts, four devices; a member
/// removed mid-way cannot read what follows.
@Suite(.serialized) struct GroupConversationTests {
    static func groupTexts(_ client: ParleyClient, _ groupId: Data) throws -> [String] {
        guard let group = try client.groups().first(where: { $0.id == groupId }) else { return [] }
        return try client.history(conversationId: group.conversationId).messages.reversed().filter { $0.kind == .message }.compactMap(
            \.body)
    }

    /// A group of Alice and Bob, made after Alice learned Bob's profile key (from a message of his), so that her group
    /// messages go as one sealed sender v2 request when they can.
    static func sealedGroup(_ p: ConversationFeatureTests.People, title: String) async throws -> Data {
        try p.bobPhone.sender.enqueue(body: "hi", to: p.aliceId)
        _ = try await p.bobPhone.runJobs()
        _ = try await p.alice.receiveOnce()
        let groupId = try p.alice.sender.createGroup(title: title, members: [p.bobId])
        _ = try await p.alice.runJobs()
        return groupId
    }

    /// A group of Alice and Bob in which Alice has sent one message ("before"), so that both of Bob's devices hold her
    /// sender key.
    static func groupWithAliceKeyShared(_ p: ConversationFeatureTests.People, title: String) async throws -> Data {
        let groupId = try p.alice.sender.createGroup(title: title, members: [p.bobId])
        _ = try await p.alice.runJobs()
        try p.alice.sender.enqueue(body: "before", toGroup: groupId)
        _ = try await p.alice.runJobs()
        return groupId
    }

    /// Alice sends "after" to the group; the envelope types waiting for `newLaptop`: the distribution message (1:1)
    /// ahead of the group message (type 7) when she handed it her key.
    static func sendAfter(_ p: ConversationFeatureTests.People, to groupId: Data, pendingFor newLaptop: ParleyClient) async throws
        -> [UInt8]
    {
        try p.alice.sender.enqueue(body: "after", toGroup: groupId)
        _ = try await p.alice.runJobs()
        return try await newLaptop.api.mailbox(as: try newLaptop.credentials()).messages.map(\.type)
    }

    /// Carol was removed and knows it; Bob has not heard yet and still sends to her: her client shows nothing.
    @Test func aRemovedMemberStoresNothingFromASenderWhoDidNotKnow() async throws {
        try await TestServer.run { server in
            let p = try await ConversationFeatureTests.people(server)
            let groupId = try p.alice.sender.createGroup(title: "Late news", members: [p.bobId, p.carolId])
            _ = try await p.alice.runJobs()
            for client in [p.bobPhone, p.bobLaptop, p.carol] { _ = try await client.receiveOnce() }
            try p.alice.sender.removeMembers([p.carolId], from: groupId)
            _ = try await p.alice.runJobs()
            _ = try await p.carol.receiveOnce()
            #expect(try p.carol.groups().first?.left == true)

            try p.bobPhone.sender.enqueue(body: "sent before bob knew", toGroup: groupId)
            _ = try await p.bobPhone.runJobs()
            _ = try await p.carol.receiveOnce()
            #expect(try Self.groupTexts(p.carol, groupId).isEmpty, "the removed member's client refuses it")
            _ = try await p.alice.receiveOnce()
            #expect(try Self.groupTexts(p.alice, groupId) == ["sent before bob knew"])
            // Alice sees Bob is behind (an older revision) and queues him the group as it is now.
            let catchUp = try p.alice.database.read { db in
                try Data.fetchAll(db, sql: "SELECT payload FROM jobs WHERE kind = 'content'")
            }.compactMap { try? JSONDecoder().decode(MessageSender.ContentJob.self, from: $0) }
            #expect(
                catchUp.contains {
                    $0.audience == .accounts([p.bobId]) && $0.message.group?.revision == 2
                        && $0.message.group?.state?.members.contains(p.carolId) == false
                })
            _ = try await p.alice.runJobs()
            _ = try await p.bobPhone.receiveOnce()
            #expect(try p.bobPhone.groups().first?.members.contains(p.carolId) == false)
        }
    }

    /// The server gives a removed device's id to the next device linked: a sender who saw the device go (409, an extra
    /// device) forgets that it held the sender key, so the new device with the same id is handed the key again.
    @Test func aNewDeviceWithARemovedOnesIdIsHandedTheSenderKey() async throws {
        try await TestServer.run { server in
            let p = try await ConversationFeatureTests.people(server)
            let groupId = try await Self.groupWithAliceKeyShared(p, title: "Relink")
            for client in [p.bobPhone, p.bobLaptop] { _ = try await client.receiveOnce() }
            #expect(try Self.groupTexts(p.bobLaptop, groupId) == ["before"])

            try await p.bobPhone.removeDevice(2)
            try p.alice.sender.enqueue(body: "while the laptop is gone", toGroup: groupId)
            _ = try await p.alice.runJobs()
            let newLaptop = try server.client("bob-new-laptop")
            #expect(try await p.bobPhone.accounts.linkNewDevice(database: newLaptop.database, name: "new laptop").deviceId == 2)

            let pending = try await Self.sendAfter(p, to: groupId, pendingFor: newLaptop)
            #expect(pending.count == 2 && pending.last == 7 && pending.first != 7, "the new device's mailbox: \(pending)")
        }
    }

    /// A new device given a removed one's id that writes first: its pre-key message carries a new registration id, so
    /// the receiver forgets that the device held its sender key, and the next sealed group send hands the key over.
    @Test func aNewInstallationThatWritesFirstIsHandedTheSenderKey() async throws {
        try await TestServer.run { server in
            let p = try await ConversationFeatureTests.people(server)
            let groupId = try await Self.sealedGroup(p, title: "Sealed relink")
            try p.alice.sender.enqueue(body: "before", toGroup: groupId)
            _ = try await p.alice.runJobs()
            for client in [p.bobPhone, p.bobLaptop] { _ = try await client.receiveOnce() }
            let oldRegistrationId = try p.alice.database.read { db in
                try Int64.fetchOne(
                    db, sql: "SELECT registration_id FROM recipient_devices WHERE account_id = ? AND device_id = 2", arguments: [p.bobId])
            }

            try await p.bobPhone.removeDevice(2)
            let newLaptop = try server.client("bob-new-laptop")
            #expect(try await p.bobPhone.accounts.linkNewDevice(database: newLaptop.database, name: "new laptop").deviceId == 2)
            try newLaptop.sender.enqueue(body: "hello from the new laptop", to: p.aliceId)
            _ = try await newLaptop.runJobs()
            _ = try await p.alice.receiveOnce()
            // Before Alice sends anything (her receipt would also learn of the new device, from the server's 410):
            // the pre-key message alone makes her forget that device 2 held her key, and record its new registration id.
            let (holders, recorded) = try p.alice.database.read { db in
                (
                    try Int.fetchOne(
                        db, sql: "SELECT count(*) FROM sender_key_shared WHERE account_id = ? AND device_id = 2",
                        arguments: [p.bobId]) ?? -1,
                    try Int64.fetchOne(
                        db, sql: "SELECT registration_id FROM recipient_devices WHERE account_id = ? AND device_id = 2",
                        arguments: [p.bobId])
                )
            }
            #expect(holders == 0)
            #expect(recorded != nil && recorded != oldRegistrationId)
            _ = try await p.alice.runJobs()  // Alice's receipts for it
            _ = try await newLaptop.receiveOnce()

            try p.alice.sender.enqueue(body: "after", toGroup: groupId)
            _ = try await p.alice.runJobs()
            // The distribution message reaches the new laptop as well as the group message.
            let pending = try await newLaptop.api.mailbox(as: try newLaptop.credentials()).messages
            #expect(pending.count == 2, "the new device's mailbox: \(pending.map(\.type))")
        }
    }

    /// Clients before `DeviceSessions.remove` forgot sender-key holders forgot a removed device's session and its
    /// record but not that it held the key. When a new device takes that id, the send that learns of it from the server
    /// (409, a missing device) forgets the leftover, so the new device is handed the key.
    @Test func aHolderLeftBehindByAnOlderClientIsForgottenWhenItsIdComesBack() async throws {
        try await TestServer.run { server in
            let p = try await ConversationFeatureTests.people(server)
            let groupId = try await Self.groupWithAliceKeyShared(p, title: "Leftovers")
            // What an older client's removal of Bob's laptop left: the holder row, without the device or its session.
            try await p.alice.database.awaitableWrite { db in
                try db.execute(sql: "DELETE FROM recipient_devices WHERE account_id = ? AND device_id = 2", arguments: [p.bobId])
                try db.execute(sql: "DELETE FROM sessions WHERE address = ? AND device_id = 2", arguments: [p.bobId])
            }
            let leftover = try p.alice.database.read { db in
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM sender_key_shared WHERE account_id = ? AND device_id = 2", arguments: [p.bobId])
            }
            #expect(leftover == 1)

            try await p.bobPhone.removeDevice(2)
            let newLaptop = try server.client("bob-new-laptop")
            #expect(try await p.bobPhone.accounts.linkNewDevice(database: newLaptop.database, name: "new laptop").deviceId == 2)
            let pending = try await Self.sendAfter(p, to: groupId, pendingFor: newLaptop)
            #expect(pending.count == 2 && pending.last == 7 && pending.first != 7, "the new device's mailbox: \(pending)")
        }
    }

    /// Someone empties one member's sealed-send bucket (a flood): the group's one sealed request is refused (429), and
    /// the message goes member by member instead — the other members get it at once, only the flooded member's copy
    /// waits for the job's retry.
    @Test func aFloodedMemberDelaysOnlyItsOwnCopy() async throws {
        let flooding: (inout ServerLimits) -> Void = {
            $0.rateLimits.unidentifiedSendPerRecipient = TokenBucketPolicy(capacity: 40, refillPerSecond: 0.001)
        }
        try await TestServer.run(adjusting: flooding) { server in
            let p = try await ConversationFeatureTests.people(server)
            for client in [p.bobPhone, p.carol] {
                try client.sender.enqueue(body: "hi", to: p.aliceId)
                _ = try await client.runJobs()
            }
            _ = try await p.alice.receiveOnce()
            let groupId = try p.alice.sender.createGroup(title: "Flooded", members: [p.bobId, p.carolId])
            _ = try await p.alice.runJobs()
            for client in [p.bobPhone, p.carol] { _ = try await client.receiveOnce() }

            // The flood: sealed garbage to Bob until the server turns sends to him away.
            let bobsKey = try #require(
                try p.alice.database.read { db in try UnidentifiedDelivery.accessKeys(for: [p.bobId], db) }.first ?? nil)
            var refused = false
            for attempt in 0..<60 where !refused {
                let garbage = SendMessagesRequest(
                    messages: [
                        OutgoingMessage(
                            destinationDeviceId: 1, destinationRegistrationId: 1,
                            type: OutgoingMessage.unidentifiedSenderType, content: "AAAA")
                    ],
                    timestamp: 1_000 + UInt64(attempt))
                do {
                    _ = try await p.alice.api.send(garbage, to: p.bobId, accessKey: bobsKey, idempotencyKey: nil)
                } catch let error as ParleyError where error.isRateLimited {
                    refused = true
                } catch {}
            }
            #expect(refused)

            try p.alice.sender.enqueue(body: "still here", toGroup: groupId)
            #expect(try await p.alice.runJobs().deferred == 1, "the job waits for its retry, for Bob")
            _ = try await p.carol.receiveOnce()
            #expect(try Self.groupTexts(p.carol, groupId) == ["still here"])
            _ = try await p.bobPhone.receiveOnce()
            #expect(try Self.groupTexts(p.bobPhone, groupId).isEmpty, "Bob's copy waits for the retry")
        }
    }

    /// A member device whose id the multi-recipient format cannot carry (past 127, as servers before the lowest-free
    /// rule could hand out) makes the group send go member by member instead of failing.
    @Test func aDeviceIdPast127SendsMemberByMember() async throws {
        try await TestServer.run { server in
            guard !server.usesPostgres else { return }  // the device is renumbered in the server's SQLite file
            let p = try await ConversationFeatureTests.people(server)
            let groupId = try await Self.sealedGroup(p, title: "Old ids")
            let serverDatabase = try DatabaseQueue(path: server.serverDatabasePath)
            try await serverDatabase.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                for table in ["devices", "signed_prekeys", "one_time_prekeys", "kem_prekeys", "mailbox", "push_targets", "device_sockets"] {
                    try db.execute(sql: "UPDATE \(table) SET device_id = 200 WHERE account_id = ? AND device_id = 2", arguments: [p.bobId])
                }
            }
            try? await p.bobPhone.removeDevice(99)  // no such device; the server re-reads Bob's account all the same

            try p.alice.sender.enqueue(body: "to every device", toGroup: groupId)
            #expect(try await p.alice.runJobs().completed == 1)
            _ = try await p.bobPhone.receiveOnce()
            #expect(try Self.groupTexts(p.bobPhone, groupId) == ["to every device"])
            #expect(try await !server.storedEnvelopes(accountId: p.bobId, deviceId: 200).isEmpty, "device 200 got the group message too")
        }
    }

    @Test func aRemovedMemberCannotReadWhatFollows() async throws {
        try await TestServer.run { server in
            let p = try await ConversationFeatureTests.people(server)
            let groupId = try p.alice.sender.createGroup(title: "Trip", members: [p.bobId, p.carolId])
            _ = try await p.alice.runJobs()
            for client in [p.bobPhone, p.bobLaptop, p.carol] { _ = try await client.receiveOnce() }
            for client in [p.bobPhone, p.bobLaptop, p.carol] {
                let group = try #require(try client.groups().first)
                #expect(
                    group.id == groupId && group.title == "Trip" && Set(group.members) == [p.aliceId, p.bobId, p.carolId] && !group.left)
            }

            // One Sender Key ciphertext for every member device; the distribution message went 1:1 first.
            try p.alice.sender.enqueue(body: "hi all", toGroup: groupId)
            _ = try await p.alice.runJobs()
            let pending = try await p.bobPhone.api.mailbox(as: try p.bobPhone.credentials()).messages
            #expect(pending.map(\.type) == [3, 7] || pending.map(\.type) == [2, 7])  // the distribution (1:1), then the group message
            for client in [p.bobPhone, p.bobLaptop, p.carol] { _ = try await client.receiveOnce() }
            for client in [p.bobPhone, p.bobLaptop, p.carol] { #expect(try Self.groupTexts(client, groupId) == ["hi all"]) }

            // Bob answers from his phone: his own sender key; the laptop gets the transcript; a reaction from Carol.
            try p.bobPhone.sender.enqueue(body: "hello from bob", toGroup: groupId)
            _ = try await p.bobPhone.runJobs()
            for client in [p.alice, p.carol, p.bobLaptop] { _ = try await client.receiveOnce() }
            for client in [p.alice, p.carol, p.bobLaptop] { #expect(try Self.groupTexts(client, groupId) == ["hi all", "hello from bob"]) }
            let carolsView = try #require(
                try p.carol.groups().first.map { try p.carol.history(conversationId: $0.conversationId).messages })
            try p.carol.sender.react("🎉", to: try #require(carolsView.first { $0.body == "hi all" }).id)
            _ = try await p.carol.runJobs()
            _ = try await p.alice.receiveOnce()
            let aliceConversation = try #require(try p.alice.groups().first).conversationId
            #expect(
                try p.alice.history(conversationId: aliceConversation).messages.first { $0.body == "hi all" }?.reactions.map(\.emoji) == [
                    "🎉"
                ])

            // Alice removes Carol. Carol learns she is out; the others start new sender keys.
            try p.alice.sender.removeMembers([p.carolId], from: groupId)
            _ = try await p.alice.runJobs()
            for client in [p.bobPhone, p.bobLaptop, p.carol] { _ = try await client.receiveOnce() }
            #expect(try p.carol.groups().first?.left == true)
            #expect(try p.bobPhone.groups().first?.members.contains(p.carolId) == false)
            #expect(throws: ParleyError.self) { try p.carol.sender.enqueue(body: "still here?", toGroup: groupId) }

            try p.alice.sender.enqueue(body: "carol cannot read this", toGroup: groupId)
            _ = try await p.alice.runJobs()
            // Carol gets nothing, and the ciphertext Bob got does not open with anything Carol holds.
            #expect(try await p.carol.receiveOnce().isEmpty)
            let copies = try await p.bobPhone.api.mailbox(as: try p.bobPhone.credentials()).messages
            let groupCopy = try #require(copies.last { $0.type == 7 || $0.type == 6 })  // sealed once Alice knows Bob's key
            guard case .undecryptable = try await p.carol.receiver.process(groupCopy) else {
                Issue.record("a removed member decrypted a later group message")
                return
            }
            _ = try await p.bobPhone.receiveOnce()
            #expect(try Self.groupTexts(p.bobPhone, groupId).last == "carol cannot read this")

            // Bob's next message uses a new sender key too: Alice reads it, Carol gets nothing.
            try p.bobPhone.sender.enqueue(body: "bob after the removal", toGroup: groupId)
            _ = try await p.bobPhone.runJobs()
            _ = try await p.alice.receiveOnce()
            #expect(try Self.groupTexts(p.alice, groupId).last == "bob after the removal")
            #expect(try await p.carol.receiveOnce().isEmpty)
            #expect(try !Self.groupTexts(p.carol, groupId).contains("carol cannot read this"))

            // Every message is stored once per device.
            #expect(
                try p.bobPhone.database.read { db in
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM messages WHERE body = 'hi all'")
                } == 1)
            // The group shows in the inbox under its title.
            #expect(try p.alice.conversations().contains { $0.groupId == groupId && $0.title == "Trip" })
        }
    }

    @Test func onlyMembersChangeAGroupAndLeavingIsHeard() async throws {
        try await TestServer.run { server in
            let p = try await ConversationFeatureTests.people(server)
            let groupId = try p.alice.sender.createGroup(title: "Pair", members: [p.bobId])
            _ = try await p.alice.runJobs()
            _ = try await p.bobPhone.receiveOnce()
            // Carol, not a member, claims to rename the group: refused by Bob's client.
            let forged = DataMessage(
                body: nil,
                group: GroupContext(
                    id: groupId, revision: 9,
                    state: GroupState(
                        title: "hijacked",
                        members: [p.carolId, p.bobId])))
            try await p.carol.delivery.deliver(
                MessageContent(dataMessage: forged), to: p.bobId,
                timestamp: UInt64(Date().timeIntervalSince1970 * 1000), as: try p.carol.credentials())
            guard case .rejected = try await p.bobPhone.receiveOnce().first else {
                Issue.record("a non-member changed the group")
                return
            }
            #expect(try p.bobPhone.groups().first?.title == "Pair")
            // Bob leaves; Alice sees him go and sends only to herself from then on.
            try p.bobPhone.sender.leaveGroup(groupId)
            _ = try await p.bobPhone.runJobs()
            _ = try await p.alice.receiveOnce()
            #expect(try p.alice.groups().first?.members == [p.aliceId])
            #expect(try p.bobPhone.groups().first?.left == true)
        }
    }
}
