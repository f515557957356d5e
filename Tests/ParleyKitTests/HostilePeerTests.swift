import Foundation
import GRDB
import ParleyProtocol
import Testing

@_spi(Inspection) @testable import ParleyKit

/// A peer whose messages decrypt but whose content is crafted: timestamps no database column holds, a sender key that
/// cannot be taken, receipts from outside the conversation, quotes into other conversations, endless edits and group
/// revisions jumping to the last one. Each is refused or contained; nothing crashes, nothing stalls the queue.
@Suite(.serialized) struct HostilePeerTests {
    static func database(_ name: String) throws -> ParleyDatabase {
        try ParleyDatabase(
            path: FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID()).sqlite").path,
            key: try DatabaseKey(bytes: [UInt8](repeating: 7, count: 32)))
    }

    static func origin(_ author: String, at time: UInt64, peer: String, local: String = "me") -> ConversationActions.Origin {
        ConversationActions.Origin(
            author: author, authorDevice: 1, timestamp: time, serverTimestamp: time, peer: peer,
            outgoing: false, status: .received, now: time, localAccountId: local)
    }

    /// Every timestamp a peer names fits a signed 64-bit column, or the content is malformed (it used to trap the
    /// client inside the receive transaction, so the message came back, and trapped it again, on every start).
    @Test func timestampsBeyondTheDatabasesRangeAreMalformed() throws {
        let late = MessageContent.maximumTimestamp + 1
        for bad in [
            MessageContent(dataMessage: DataMessage(body: "re", quote: Quote(authorAccountId: "a", timestamp: late))),
            MessageContent(
                dataMessage: DataMessage(body: nil, reaction: Reaction(emoji: "👍", targetAuthorAccountId: "a", targetTimestamp: late))),
            MessageContent(dataMessage: DataMessage(body: "new", editTarget: late)),
            MessageContent(dataMessage: DataMessage(body: nil, deleteTarget: UInt64.max)),
            MessageContent(receipt: Receipt(kind: "read", timestamps: [1, late])),
        ] {
            #expect(throws: ParleyError.self, "\(bad)") { try MessageContent.decode(try bad.encode()) }
        }
        let latest = MessageContent(
            dataMessage: DataMessage(body: "re", quote: Quote(authorAccountId: "a", timestamp: MessageContent.maximumTimestamp)))
        #expect(try MessageContent.decode(try latest.encode()) == latest)
    }

    /// Through a real server: Alice's crafted contents reach Bob as recorded refusals, in order, and the honest
    /// message after them is stored — a sender key that cannot be taken is refused and acknowledged, not left to
    /// come back first after every reconnect.
    @Test func craftedContentIsRefusedAndTheQueueMovesOn() async throws {
        try await TestServer.run { server in
            let p = try await ConversationFeatureTests.people(server)
            let groupId = try p.alice.sender.createGroup(title: "Crafted", members: [p.bobId])
            _ = try await p.alice.runJobs()
            _ = try await p.bobPhone.receiveOnce()
            let credentials = try p.alice.database.read(LocalAccount.credentials)
            let late = MessageContent.maximumTimestamp + 1
            for content in [
                MessageContent(dataMessage: DataMessage(body: "re", quote: Quote(authorAccountId: p.bobId, timestamp: late))),
                MessageContent(receipt: Receipt(kind: "delivered", timestamps: [UInt64.max])),
                MessageContent(senderKeyDistribution: SenderKeyDistribution(groupId: groupId, distributionId: UUID(), message: Data([1]))),
                MessageContent(dataMessage: DataMessage(body: "still here")),
            ] {
                _ = try await p.alice.sender.delivery.deliver(content, to: p.bobId, timestamp: p.alice.sender.clock.next(), as: credentials)
            }
            let outcomes = try await p.bobPhone.receiveOnce()
            #expect(outcomes.count == 4, "\(outcomes)")
            guard outcomes.count == 4 else { return }
            for outcome in outcomes.prefix(2) {
                guard case .undecryptable(let reason) = outcome, reason.contains("timestamp") else {
                    Issue.record("\(outcome)")
                    continue
                }
            }
            guard case .rejected(let reason) = outcomes[2], reason.contains("sender key") else {
                Issue.record("\(outcomes[2])")
                return
            }
            guard case .stored = outcomes[3] else {
                Issue.record("\(outcomes[3])")
                return
            }
            #expect(try ConversationFeatureTests.messages(p.bobPhone, with: p.aliceId).compactMap(\.body) == ["still here"])
            // Nothing is left on the server to come back.
            #expect(try await p.bobPhone.receiveOnce().isEmpty)
        }
    }

    /// A member whose account does not exist (gone, or a made-up id another member added) is left out of the group's
    /// changes and messages; it does not fail them for everyone else.
    @Test func aMemberWithNoAccountDoesNotStopTheGroup() async throws {
        try await TestServer.run { server in
            let p = try await ConversationFeatureTests.people(server)
            let nobody = "00000000-0000-4000-8000-000000000000"  // sorts before every real member
            let groupId = try p.alice.sender.createGroup(title: "With a ghost", members: [nobody, p.bobId])
            var report = try await p.alice.runJobs()
            #expect(report.failed == 0, "\(report)")
            _ = try await p.bobPhone.receiveOnce()
            #expect(try p.bobPhone.groups().first { $0.id == groupId }?.members.contains(nobody) == true)
            let sent = try p.alice.sender.enqueue(body: "hello, group", toGroup: groupId)
            report = try await p.alice.runJobs()
            #expect(report.failed == 0, "\(report)")
            #expect(
                try p.alice.database.read { db in
                    try String.fetchOne(db, sql: "SELECT status FROM messages WHERE id = ?", arguments: [sent])
                }
                    == MessageStatus.sent.rawValue)
            _ = try await p.bobPhone.receiveOnce()
            #expect(try GroupConversationTests.groupTexts(p.bobPhone, groupId) == ["hello, group"])
        }
    }

    /// A receipt marks only a message sent to a conversation its sender is in, and never moves a message that is still
    /// being sent (the retry for the recipients who lack it must still find it unsent); the send's end takes it in.
    @Test func receiptsComeFromTheConversationAndWaitForTheSend() throws {
        let database = try Self.database("receipts")
        try database.write { db in
            let bobConversation = try ConversationsTable.oneToOne(with: "bob", now: 1, db)
            _ = try ConversationsTable.oneToOne(with: "carol", now: 1, db)
            var row = NewMessage(
                conversationId: bobConversation, outgoing: true, authorAccountId: "me", authorDeviceId: 1, timestamp: 500,
                serverTimestamp: nil, body: "to bob", status: .sending, replyToId: nil)
            row.kind = .message
            let id = try #require(try MessagesTable.insert(row, db))
            #expect(try MessagesTable.sent(at: 500, by: "me", seenBy: "carol", db) == nil, "carol was not sent it")
            #expect(try MessagesTable.sent(at: 500, by: "me", seenBy: "bob", db) == id)
            #expect(try MessagesTable.sent(at: UInt64.max, by: "me", seenBy: "bob", db) == nil)
            try MessagesTable.receiptArrived(.delivered, messageId: id, db)
            try ReceiptsTable.record("delivered", for: id, from: "bob", deviceId: 1, now: 600, db)
            #expect(try MessagesTable.unsent(id, db) != nil, "still sending: the retry finds it")
            try MessagesTable.markSent(id, serverTimestamp: 550, now: 700, db)
            #expect(
                try String.fetchOne(db, sql: "SELECT status FROM messages WHERE id = ?", arguments: [id])
                    == MessageStatus.delivered.rawValue)
            try MessagesTable.receiptArrived(.read, messageId: id, db)
            #expect(
                try String.fetchOne(db, sql: "SELECT status FROM messages WHERE id = ?", arguments: [id]) == MessageStatus.read.rawValue)
        }
    }

    /// A quote links only to a message of its own conversation; one message takes at most ``ConversationActions/maximumEdits``
    /// edits.
    @Test func quotesStayInTheirConversationAndEditsAreBounded() throws {
        let database = try Self.database("quotes")
        try database.write { db in
            _ = try ConversationActions.apply(DataMessage(body: "carol's secret"), from: Self.origin("carol", at: 100, peer: "carol"), db)
            guard
                case .stored(let reply) = try ConversationActions.apply(
                    DataMessage(body: "re", quote: Quote(authorAccountId: "carol", timestamp: 100)),
                    from: Self.origin("bob", at: 200, peer: "bob"), db)
            else {
                Issue.record("the reply was not stored")
                return
            }
            #expect(try MessageLookup.message(reply, db)?.replyToId == nil, "a quote into another conversation is not linked")

            // A sender's clock years ahead: the conversation is placed by when the server took the message.
            var future = Self.origin("dave", at: 4_000_000_000_000, peer: "dave")
            future.serverTimestamp = 300
            _ = try ConversationActions.apply(DataMessage(body: "from the future"), from: future, db)
            #expect(try Int64.fetchOne(db, sql: "SELECT updated FROM threads WHERE recipient_account_id = 'dave'") == 300)

            _ = try ConversationActions.apply(DataMessage(body: "v0"), from: Self.origin("bob", at: 1_000, peer: "bob"), db)
            for edit in 1...ConversationActions.maximumEdits {
                #expect(
                    try ConversationActions.apply(
                        DataMessage(body: "v\(edit)", editTarget: 1_000),
                        from: Self.origin("bob", at: 1_000 + UInt64(edit), peer: "bob"), db) == .applied)
            }
            guard
                case .rejected = try ConversationActions.apply(
                    DataMessage(body: "one more", editTarget: 1_000),
                    from: Self.origin("bob", at: 2_000, peer: "bob"), db)
            else {
                Issue.record("an edit past the bound was applied")
                return
            }
        }
    }

    /// A member cannot jump a group's revision toward the last one (after which nobody could change it); and a group
    /// that is at the last revision is refused a change with an error, not an overflow.
    /// A sender reusing the timestamp of one of its earlier messages on a group change or a timer update changes
    /// nothing: the notice would be a duplicate and not shown, so the change would go unseen.
    @Test func aReusedTimestampChangesNoGroupAndNoTimer() throws {
        let database = try Self.database("reused")
        let groupId = Data(repeating: 5, count: GroupContext.idLength)
        try database.write { db in
            let created = GroupContext(id: groupId, revision: 1, state: GroupState(title: "g", members: ["me", "mallory"]))
            _ = try GroupChanges.apply(created, from: Self.origin("mallory", at: 10, peer: "", local: "me"), db)
            var posted = DataMessage(body: "hello")
            posted.group = GroupContext(id: groupId, revision: 1)
            guard case .stored = try ConversationActions.apply(posted, from: Self.origin("mallory", at: 20, peer: "", local: "me"), db)
            else {
                Issue.record("the message was not stored")
                return
            }
            var addEve = DataMessage(body: nil)
            addEve.group = GroupContext(id: groupId, revision: 2, state: GroupState(title: "g", members: ["me", "mallory", "eve"]))
            #expect(try ConversationActions.apply(addEve, from: Self.origin("mallory", at: 20, peer: "", local: "me"), db) == .duplicate)
            #expect(try ConversationsTable.group(id: groupId, db)?.members.contains("eve") == false)

            _ = try ConversationActions.apply(DataMessage(body: "hi"), from: Self.origin("mallory", at: 30, peer: "mallory"), db)
            let timerOff = DataMessage(body: nil, expireTimer: 0, isTimerUpdate: true)
            let conversation = try #require(try ConversationsTable.id(with: "mallory", db))
            try ConversationsTable.setExpireTimer(3600, conversationId: conversation, db)
            #expect(try ConversationActions.apply(timerOff, from: Self.origin("mallory", at: 30, peer: "mallory"), db) == .duplicate)
            #expect(try ConversationsTable.expireTimer(conversationId: conversation, db) == 3600)
        }
    }

    @Test func groupRevisionsMoveInBoundedSteps() async throws {
        let database = try Self.database("revisions")
        let groupId = Data(repeating: 3, count: GroupContext.idLength)
        try database.write { db in
            let members = ["me", "mallory"]
            let created = GroupContext(id: groupId, revision: 5, state: GroupState(title: "g", members: members))
            guard case .stored = try GroupChanges.apply(created, from: Self.origin("mallory", at: 10, peer: "", local: "me"), db) else {
                Issue.record("the group was not created")
                return
            }
            let jump = GroupContext(
                id: groupId, revision: 5 + GroupChanges.maximumRevisionStep + 1, state: GroupState(title: "mine", members: members))
            guard case .rejected = try GroupChanges.apply(jump, from: Self.origin("mallory", at: 20, peer: "", local: "me"), db) else {
                Issue.record("a jump past the bound was applied")
                return
            }
            let step = GroupContext(
                id: groupId, revision: 5 + GroupChanges.maximumRevisionStep, state: GroupState(title: "renamed", members: members))
            guard case .stored = try GroupChanges.apply(step, from: Self.origin("mallory", at: 30, peer: "", local: "me"), db) else {
                Issue.record("a change within the bound was refused")
                return
            }
            #expect(try ConversationsTable.group(id: groupId, db)?.title == "renamed")
            // A member named like this device's placeholder for a name still to look up: refused.
            let squatting = GroupContext(
                id: Data(repeating: 6, count: GroupContext.idLength), revision: 1,
                state: GroupState(title: "squat", members: members + [PendingRecipients.prefix + "bob"]))
            guard case .rejected = try GroupChanges.apply(squatting, from: Self.origin("mallory", at: 35, peer: "", local: "me"), db) else {
                Issue.record("a placeholder member was taken")
                return
            }
            #expect(try RecipientsTable.contains(PendingRecipients.prefix + "bob", db) == false)
            // One already in a group (from before this check) does not stop the change that removes it.
            let knownConversation = try #require(try ConversationsTable.group(id: groupId, db)?.conversationId)
            try GroupMembersTable.replace(conversationId: knownConversation, with: members + [PendingRecipients.prefix + "bob"], db)
            let cleanUp = GroupContext(
                id: groupId, revision: 5 + GroupChanges.maximumRevisionStep + 1, state: GroupState(title: "renamed", members: members))
            guard case .stored = try GroupChanges.apply(cleanUp, from: Self.origin("mallory", at: 36, peer: "", local: "me"), db) else {
                Issue.record("a change removing a placeholder member was refused")
                return
            }
            // A group first heard of at the last revision could never change again: refused.
            let frozen = GroupContext(
                id: Data(repeating: 4, count: GroupContext.idLength), revision: UInt32.max,
                state: GroupState(title: "frozen", members: members))
            guard case .rejected = try GroupChanges.apply(frozen, from: Self.origin("mallory", at: 40, peer: "", local: "me"), db) else {
                Issue.record("a group at the last revision was created")
                return
            }
        }
        try await TestServer.run { server in
            let p = try await ConversationFeatureTests.people(server)
            let last = try p.alice.sender.createGroup(title: "Last", members: [p.bobId])
            try p.alice.database.write { db in
                try db.execute(sql: "UPDATE threads SET group_revision = ? WHERE group_id = ?", arguments: [Int64(UInt32.max), last])
            }
            #expect(throws: ParleyError.self) { try p.alice.sender.renameGroup(last, to: "again") }
        }
    }
}
