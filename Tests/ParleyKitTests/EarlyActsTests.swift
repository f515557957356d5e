import Foundation
import GRDB
import ParleyProtocol
import Testing

@_spi(Inspection) @testable import ParleyKit

/// Edits, deletes and reactions that arrive before the message they concern — deliveries are not ordered across
/// devices, and a message that could not be decrypted comes again only after a retry receipt — are held and applied
/// when it comes, within bounds a peer cannot push past.
@Suite struct EarlyActsTests {
    static let start: UInt64 = 1_800_000_000_000

    /// A message from `author` (another device's) applied at `time`, in the 1:1 conversation with `peer`.
    static func arrived(_ author: String, at time: UInt64, peer: String) -> ConversationActions.Origin {
        var origin = HostilePeerTests.origin(author, at: time, peer: peer)
        origin.arrival = .received
        return origin
    }

    static func stored(_ result: ConversationActions.Result) throws -> Int64 {
        guard case .stored(let id) = result else { throw Refusal(result: result) }
        return id
    }

    struct Refusal: Error { let result: ConversationActions.Result }

    static func reaction(_ emoji: String = "👍", to author: String, at timestamp: UInt64) -> DataMessage {
        DataMessage(body: nil, reaction: Reaction(emoji: emoji, targetAuthorAccountId: author, targetTimestamp: timestamp))
    }

    static func isRejected(_ result: ConversationActions.Result) -> Bool {
        if case .rejected = result { true } else { false }
    }

    @Test func aReactionAnEditAndADeleteThatCameFirstAreAppliedWhenTheirMessageComes() throws {
        let database = try HostilePeerTests.database("early-acts")
        try database.write { db in
            // Carol's earlier message starts the conversation; her next one is late.
            _ = try Self.stored(
                ConversationActions.apply(DataMessage(body: "first"), from: Self.arrived("carol", at: Self.start, peer: "carol"), db))
            let late = Self.start + 10
            // A reaction synced from this account's other device, and Carol's own edit.
            var synced = Self.arrived("me", at: late + 5, peer: "carol")
            synced.outgoing = true
            #expect(try ConversationActions.apply(Self.reaction(to: "carol", at: late), from: synced, db) == .held)
            let edit = DataMessage(body: "late, and edited", editTarget: late)
            #expect(try ConversationActions.apply(edit, from: Self.arrived("carol", at: late + 20, peer: "carol"), db) == .held)
            #expect(try EarlyActsTable.count(db) == 2)

            var released = ConversationActions.ReleasedActs()
            let id = try Self.stored(
                ConversationActions.apply(
                    DataMessage(body: "late"), from: Self.arrived("carol", at: late, peer: "carol"), db,
                    released: &released))
            let message = try #require(try MessageLookup.message(id, db))
            #expect(message.body == "late, and edited" && message.editedAt == late + 20)
            #expect(message.reactions.map(\.emoji) == ["👍"])
            #expect(try EarlyActsTable.count(db) == 0)
            // Front doors hear of Carol's edit now (they heard nothing while it was held), as she sent it; not of this
            // account's own reaction, synced from its other device.
            #expect(
                released.reported == [
                    AppliedAct(
                        authorAccountId: "carol", authorDeviceId: 1, timestamp: late + 20, groupId: nil,
                        kind: .edit(targetTimestamp: late, body: "late, and edited", mentions: []))
                ])
            #expect(!released.deletedMessage)

            // A delete for everyone that came first leaves a tombstone the moment the message arrives.
            let doomed = Self.start + 100
            #expect(
                try ConversationActions.apply(
                    DataMessage(body: nil, deleteTarget: doomed), from: Self.arrived("carol", at: doomed + 1, peer: "carol"), db) == .held)
            #expect(
                try ConversationActions.apply(
                    Self.reaction("😮", to: "carol", at: doomed), from: Self.arrived("carol", at: doomed + 2, peer: "carol"), db) == .held)
            var releasedWithDelete = ConversationActions.ReleasedActs()
            let tombstone = try Self.stored(
                ConversationActions.apply(
                    DataMessage(body: "regret"), from: Self.arrived("carol", at: doomed, peer: "carol"), db,
                    released: &releasedWithDelete))
            #expect(try MessageLookup.message(tombstone, db).map { $0.deleted && $0.body == nil && $0.reactions.isEmpty } == true)
            // Only the delete is reported (the reaction went with the message), and its content is to be erased from the log.
            #expect(
                releasedWithDelete.reported.map(\.kind) == [.deleteForEveryone(targetTimestamp: doomed)]
                    && releasedWithDelete.deletedMessage)
        }
    }

    @Test func aHeldActStillKeepsTheRules() throws {
        let database = try HostilePeerTests.database("early-rules")
        try database.write { db in
            _ = try Self.stored(
                ConversationActions.apply(DataMessage(body: "mine"), from: Self.arrived("carol", at: Self.start, peer: "carol"), db))
            // An edit naming the time of someone else's message here is refused at once, not held.
            let forged = DataMessage(body: "hacked", editTarget: Self.start)
            #expect(
                Self.isRejected(try ConversationActions.apply(forged, from: Self.arrived("mallory", at: Self.start + 1, peer: "carol"), db))
            )
            // A reaction naming a message this conversation cannot hold (not the peer's, not this account's) is refused,
            // and so is one naming a message that is here, but in another conversation.
            #expect(
                Self.isRejected(
                    try ConversationActions.apply(
                        Self.reaction(to: "dave", at: 5), from: Self.arrived("carol", at: Self.start + 2, peer: "carol"), db)))
            #expect(
                Self.isRejected(
                    try ConversationActions.apply(
                        Self.reaction(to: "carol", at: Self.start), from: Self.arrived("dave", at: Self.start + 3, peer: "dave"), db)))
            // An edit made two days after its message is held, and refused when the message comes (too late).
            let old = Self.start + 50
            let lateEdit = DataMessage(body: "too late", editTarget: old)
            #expect(
                try ConversationActions.apply(lateEdit, from: Self.arrived("carol", at: old + 2 * 86_400_000, peer: "carol"), db) == .held)
            let id = try Self.stored(
                ConversationActions.apply(DataMessage(body: "as sent"), from: Self.arrived("carol", at: old, peer: "carol"), db))
            #expect(try MessageLookup.message(id, db)?.body == "as sent")
            #expect(try EarlyActsTable.count(db) == 0)
            // Only what applying the act reads is kept: a reaction carrying 60 KiB of text keeps none of it.
            var padded = Self.reaction(to: "carol", at: Self.start + 70)
            padded.body = String(repeating: "x", count: 60 * 1024)
            #expect(try ConversationActions.apply(padded, from: Self.arrived("carol", at: Self.start + 71, peer: "carol"), db) == .held)
            #expect(try Int.fetchOne(db, sql: "SELECT max(length(act) + length(origin)) FROM early_acts").map { $0 < 1_024 } == true)
            // An act made on this device on a message that is not here is refused, never held.
            let local = ConversationActions.Origin(
                author: "me", authorDevice: 1, timestamp: Self.start + 60, serverTimestamp: nil, peer: "carol",
                outgoing: true, status: .sent, now: Self.start + 60, localAccountId: "me")
            #expect(Self.isRejected(try ConversationActions.apply(Self.reaction(to: "carol", at: 7), from: local, db)))
        }
    }

    /// One author keeps one act of each kind per message (the newest), reactions cannot crowd out the author's own
    /// delete, and one author's flood pushes out only its own acts.
    @Test func heldActsAreBoundedPerMessageAndPerAuthor() throws {
        let database = try HostilePeerTests.database("early-bounds")
        try database.write { db in
            let mine = Self.start + 1
            let peers = (0..<(EarlyActsTable.maximumReactionsPerMessage + 1)).map { "peer\($0)" }
            // Reactions to this account's message (one its other device sent) from everyone it talks with.
            for (index, peer) in peers.enumerated() {
                let result = try ConversationActions.apply(
                    Self.reaction(to: "me", at: mine), from: Self.arrived(peer, at: mine + 10 + UInt64(index), peer: peer), db)
                #expect(
                    result
                        == (index < EarlyActsTable.maximumReactionsPerMessage
                            ? .held
                            : .rejected(
                                "\(EarlyActsTable.maximumReactionsPerMessage) reactions already wait for message \(mine)")))
            }
            // This account's own delete, synced from its other device, is held all the same.
            #expect(
                try ConversationActions.apply(
                    DataMessage(body: nil, deleteTarget: mine), from: Self.arrived("me", at: mine + 500, peer: "peer0"), db) == .held)
            // A second reaction of one author replaces its first; an older one arriving later changes nothing.
            #expect(
                try ConversationActions.apply(
                    Self.reaction("❤️", to: "me", at: mine), from: Self.arrived("peer0", at: mine + 600, peer: "peer0"), db) == .held)
            #expect(
                try ConversationActions.apply(
                    Self.reaction("😡", to: "me", at: mine), from: Self.arrived("peer0", at: mine + 300, peer: "peer0"), db) == .duplicate)
            let peer0 = try Data.fetchAll(db, sql: "SELECT act FROM early_acts WHERE author = 'peer0'")
            #expect(peer0.compactMap { try? MessageContent.decode([UInt8]($0)).dataMessage?.reaction?.emoji } == ["❤️"])

            // Mallory names many messages of her own: only her oldest acts go.
            for index in 0..<(EarlyActsTable.maximumPerAuthor + 50) {
                let target = Self.start + 1_000 + UInt64(index)
                _ = try ConversationActions.apply(
                    DataMessage(body: nil, deleteTarget: target), from: Self.arrived("mallory", at: target + 1, peer: "mallory"), db)
            }
            let byAuthor = try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT author, count(*) AS n FROM early_acts GROUP BY author")
                    .map { ($0["author"] as String, $0["n"] as Int) })
            #expect(byAuthor["mallory"] == EarlyActsTable.maximumPerAuthor && byAuthor["me"] == 1 && byAuthor["peer0"] == 1)
            // Long edits count by their bytes.
            for index in 0..<40 {
                let target = Self.start + 5_000 + UInt64(index)
                let edit = DataMessage(body: String(repeating: "\u{1}", count: 60 * 1024), editTarget: target)
                _ = try ConversationActions.apply(edit, from: Self.arrived("mallory", at: target + 1, peer: "mallory"), db)
            }
            let bytes = try Int.fetchOne(db, sql: "SELECT sum(length(act) + length(origin)) FROM early_acts WHERE author = 'mallory'") ?? 0
            #expect(bytes <= EarlyActsTable.maximumBytesPerAuthor && bytes > EarlyActsTable.maximumBytesPerAuthor / 2)
            // A day later, nothing is left to wait for.
            #expect(try EarlyActsTable.sweep(now: Self.start + 5_000 + EarlyActsTable.lifetimeMilliseconds + 100, db) > 0)
            #expect(try EarlyActsTable.count(db) == 0)
        }
    }

    /// In a group, only a member's message is waited for, and a member removed before the message comes has its act
    /// refused then.
    @Test func inAGroupAHeldActNeedsMembersOnBothEnds() throws {
        let database = try HostilePeerTests.database("early-group")
        let groupId = Data(repeating: 9, count: GroupContext.idLength)
        func change(revision: UInt32, members: [String]) -> DataMessage {
            DataMessage(body: nil, group: GroupContext(id: groupId, revision: revision, state: GroupState(title: "g", members: members)))
        }
        func inGroup(_ message: DataMessage) -> DataMessage {
            var message = message
            message.group = GroupContext(id: groupId, revision: 1)
            return message
        }
        try database.write { db in
            _ = try ConversationActions.apply(
                change(revision: 1, members: ["me", "carol", "dave"]),
                from: Self.arrived("carol", at: Self.start, peer: "carol"), db)
            let late = Self.start + 10
            #expect(
                try ConversationActions.apply(
                    inGroup(Self.reaction(to: "carol", at: late)), from: Self.arrived("dave", at: late + 1, peer: "dave"), db) == .held)
            #expect(
                Self.isRejected(
                    try ConversationActions.apply(
                        inGroup(Self.reaction(to: "eve", at: late)), from: Self.arrived("dave", at: late + 2, peer: "dave"), db)))
            // Carol removes Dave; her late message then comes, and Dave's reaction is refused.
            _ = try ConversationActions.apply(
                change(revision: 2, members: ["me", "carol"]), from: Self.arrived("carol", at: late + 3, peer: "carol"), db)
            var message = DataMessage(body: "late in the group")
            message.group = GroupContext(id: groupId, revision: 2)
            let id = try Self.stored(ConversationActions.apply(message, from: Self.arrived("carol", at: late, peer: "carol"), db))
            #expect(try MessageLookup.message(id, db)?.reactions.isEmpty == true)
            #expect(try EarlyActsTable.count(db) == 0)
        }
    }

    /// In a conversation whose messages disappear, an act waits no longer than they live.
    @Test func aHeldActLivesNoLongerThanTheConversationsMessages() throws {
        let database = try HostilePeerTests.database("early-timer")
        try database.write { db in
            _ = try Self.stored(
                ConversationActions.apply(DataMessage(body: "hi"), from: Self.arrived("carol", at: Self.start, peer: "carol"), db))
            try ConversationsTable.setExpireTimer(60, conversationId: try #require(try ConversationsTable.id(with: "carol", db)), db)
            let late = Self.start + 10
            #expect(
                try ConversationActions.apply(
                    DataMessage(body: "secret edit", editTarget: late), from: Self.arrived("carol", at: late + 1, peer: "carol"), db)
                    == .held)
            #expect(try EarlyActsTable.sweep(now: late + 1 + 59_000, db) == 0)
            #expect(try EarlyActsTable.sweep(now: late + 1 + 60_000, db) == 1)
            // Past its time, an act is not applied even before a sweep.
            #expect(
                try ConversationActions.apply(
                    DataMessage(body: "another edit", editTarget: late), from: Self.arrived("carol", at: late + 2, peer: "carol"), db)
                    == .held)
            var origin = Self.arrived("carol", at: late, peer: "carol")
            origin.now = late + 2 + 61_000
            let id = try Self.stored(ConversationActions.apply(DataMessage(body: "original"), from: origin, db))
            #expect(try MessageLookup.message(id, db)?.body == "original")
        }
    }

    /// The broken-session case end to end: Bob's laptop cannot decrypt Alice's message (it lost its session with her)
    /// but reads the transcript of Bob's phone reacting to it; the reaction waits, and is there when Alice's resend
    /// (answering the laptop's retry receipt) arrives.
    @Test func aReactionSyncedWhileItsMessageWasUndecryptableIsShownWithTheResend() async throws {
        try await TestServer.run { server in
            let p = try await ConversationFeatureTests.people(server)
            try p.alice.sender.enqueue(body: "hello", to: p.bobId)
            _ = try await p.alice.runJobs()
            for client in [p.bobPhone, p.bobLaptop] { _ = try await client.receiveOnce() }
            try await p.bobLaptop.database.awaitableWrite { db in
                try db.execute(sql: "DELETE FROM sessions WHERE address = ?", arguments: [p.aliceId])
            }

            try p.alice.sender.enqueue(body: "lost on the laptop", to: p.bobId)
            _ = try await p.alice.runJobs()
            _ = try await p.bobPhone.receiveOnce()
            let onPhone = try #require(try ConversationFeatureTests.messages(p.bobPhone, with: p.aliceId).last)
            #expect(onPhone.body == "lost on the laptop")
            let laptopFirst = try await p.bobLaptop.receiveOnce()
            #expect(laptopFirst.contains { if case .undecryptable = $0 { true } else { false } })

            try p.bobPhone.sender.react("👍", to: onPhone.id)
            _ = try await p.bobPhone.runJobs()
            let laptopSecond = try await p.bobLaptop.receiveOnce()
            #expect(laptopSecond.contains(.held), "\(laptopSecond)")

            // The laptop's retry receipt; Alice resends on a fresh session.
            _ = try await p.bobLaptop.runJobs()
            _ = try await p.alice.receiveOnce()
            _ = try await p.alice.runJobs()
            _ = try await p.bobLaptop.receiveOnce()
            let recovered = try #require(try ConversationFeatureTests.messages(p.bobLaptop, with: p.aliceId).last { !$0.outgoing })
            #expect(recovered.body == "lost on the laptop" && recovered.status != .undecryptable)
            #expect(recovered.reactions.map(\.emoji) == ["👍"] && recovered.reactions.first?.authorAccountId == p.bobId)
            #expect(try p.bobLaptop.database.read(EarlyActsTable.count) == 0)
        }
    }
}
