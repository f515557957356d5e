import Foundation
import GRDB
@_spi(Inspection) @testable import ParleyKit
import ParleyProtocol
import Testing

/// Edits, deletes and reactions that arrive before the message they concern — deliveries are not ordered across
/// devices, and a message that could not be decrypted comes again only after a retry receipt — are held and applied
/// when it comes, within bounds a peer cannot push past.
@Suite struct EarlyActsTests {
    static let start: UInt64 = 1_800_000_000_000

    /// A message from `author` (another device's) applied at `time`.
    static func arrived(_ author: String, at time: UInt64, peer: String) -> ConversationActions.Origin {
        var origin = HostilePeerTests.origin(author, at: time, peer: peer)
        origin.fromAnotherDevice = true
        return origin
    }

    static func stored(_ result: ConversationActions.Result) throws -> Int64 {
        guard case .stored(let id) = result else { throw Refusal(result: result) }
        return id
    }

    struct Refusal: Error { let result: ConversationActions.Result }

    @Test func aReactionAnEditAndADeleteThatCameFirstAreAppliedWhenTheirMessageComes() throws {
        let database = try HostilePeerTests.database("early-acts")
        try database.write { db in
            // Carol's earlier message starts the conversation; her next one is late.
            _ = try Self.stored(ConversationActions.apply(DataMessage(body: "first"), from: Self.arrived("carol", at: Self.start, peer: "carol"), db))
            let late = Self.start + 10
            let reaction = DataMessage(body: nil, reaction: Reaction(emoji: "👍", targetAuthorAccountId: "carol", targetTimestamp: late))
            #expect(try ConversationActions.apply(reaction, from: Self.arrived("me", at: late + 5, peer: "carol"), db) == .held)
            let edit = DataMessage(body: "late, and edited", editTarget: late)
            #expect(try ConversationActions.apply(edit, from: Self.arrived("carol", at: late + 20, peer: "carol"), db) == .held)
            #expect(try EarlyActsTable.count(db) == 2)

            let id = try Self.stored(ConversationActions.apply(DataMessage(body: "late"), from: Self.arrived("carol", at: late, peer: "carol"), db))
            let message = try #require(try MessageLookup.message(id, db))
            #expect(message.body == "late, and edited" && message.editedAt == late + 20)
            #expect(message.reactions.map(\.emoji) == ["👍"])
            #expect(try EarlyActsTable.count(db) == 0)

            // A delete for everyone that came first leaves a tombstone the moment the message arrives.
            let doomed = Self.start + 100
            #expect(try ConversationActions.apply(DataMessage(body: nil, deleteTarget: doomed), from: Self.arrived("carol", at: doomed + 1, peer: "carol"), db) == .held)
            let tombstone = try Self.stored(ConversationActions.apply(DataMessage(body: "regret"), from: Self.arrived("carol", at: doomed, peer: "carol"), db))
            #expect(try MessageLookup.message(tombstone, db).map { $0.deleted && $0.body == nil } == true)
        }
    }

    @Test func aHeldActStillKeepsTheRules() throws {
        let database = try HostilePeerTests.database("early-rules")
        try database.write { db in
            _ = try Self.stored(ConversationActions.apply(DataMessage(body: "mine"), from: Self.arrived("carol", at: Self.start, peer: "carol"), db))
            // An edit naming the time of someone else's message here is refused at once, not held.
            let forged = DataMessage(body: "hacked", editTarget: Self.start)
            guard case .rejected = try ConversationActions.apply(forged, from: Self.arrived("mallory", at: Self.start + 1, peer: "carol"), db) else {
                Issue.record("an edit of another author's message was not refused"); return
            }
            // An edit made two days after its message is held, and refused when the message comes (too late).
            let old = Self.start + 50
            let lateEdit = DataMessage(body: "too late", editTarget: old)
            #expect(try ConversationActions.apply(lateEdit, from: Self.arrived("carol", at: old + 2 * 86_400_000, peer: "carol"), db) == .held)
            let id = try Self.stored(ConversationActions.apply(DataMessage(body: "as sent"), from: Self.arrived("carol", at: old, peer: "carol"), db))
            #expect(try MessageLookup.message(id, db)?.body == "as sent")
            #expect(try EarlyActsTable.count(db) == 0)
            // Only what applying the act reads is kept: a reaction carrying 60 KiB of text keeps none of it.
            let padded = DataMessage(body: String(repeating: "x", count: 60 * 1024),
                                     reaction: Reaction(emoji: "👍", targetAuthorAccountId: "carol", targetTimestamp: Self.start + 70))
            #expect(try ConversationActions.apply(padded, from: Self.arrived("carol", at: Self.start + 71, peer: "carol"), db) == .held)
            #expect(try Int.fetchOne(db, sql: "SELECT max(length(act)) FROM early_acts").map { $0 < 1_024 } == true)
            // An act made on this device on a message that is not here is refused, never held.
            let local = ConversationActions.Origin(author: "me", authorDevice: 1, timestamp: Self.start + 60, serverTimestamp: nil, peer: "carol",
                                                   outgoing: true, status: .sent, now: Self.start + 60, localAccountId: "me")
            let missing = DataMessage(body: nil, reaction: Reaction(emoji: "👍", targetAuthorAccountId: "carol", targetTimestamp: 7))
            guard case .rejected = try ConversationActions.apply(missing, from: local, db) else { Issue.record("a local act was held"); return }
        }
    }

    @Test func heldActsAreBoundedPerMessagePerAuthorAndInAge() throws {
        let database = try HostilePeerTests.database("early-bounds")
        try database.write { db in
            _ = try Self.stored(ConversationActions.apply(DataMessage(body: "hi"), from: Self.arrived("mallory", at: Self.start, peer: "mallory"), db))
            let never = Self.start + 1
            for index in 0..<EarlyActsTable.maximumPerMessage {
                let reaction = DataMessage(body: nil, reaction: Reaction(emoji: "👍", targetAuthorAccountId: "mallory", targetTimestamp: never))
                #expect(try ConversationActions.apply(reaction, from: Self.arrived("mallory", at: never + 1 + UInt64(index), peer: "mallory"), db) == .held)
            }
            let oneMore = DataMessage(body: nil, reaction: Reaction(emoji: "👎", targetAuthorAccountId: "mallory", targetTimestamp: never))
            guard case .rejected = try ConversationActions.apply(oneMore, from: Self.arrived("mallory", at: never + 500, peer: "mallory"), db) else {
                Issue.record("a message's acts were not bounded"); return
            }
            // One author naming many messages pushes out only its own oldest acts.
            let honest = DataMessage(body: nil, reaction: Reaction(emoji: "❤️", targetAuthorAccountId: "carol", targetTimestamp: 42))
            #expect(try ConversationActions.apply(honest, from: Self.arrived("carol", at: Self.start + 2, peer: "carol"), db) == .held)
            for index in 0..<(EarlyActsTable.maximumPerAuthor + 50) {
                let target = Self.start + 1_000 + UInt64(index)
                let reaction = DataMessage(body: nil, reaction: Reaction(emoji: "👍", targetAuthorAccountId: "mallory", targetTimestamp: target))
                _ = try ConversationActions.apply(reaction, from: Self.arrived("mallory", at: Self.start + 3, peer: "mallory"), db)
            }
            let byAuthor = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT author, count(*) AS n FROM early_acts GROUP BY author")
                .map { ($0["author"] as String, $0["n"] as Int) })
            #expect(byAuthor == ["mallory": EarlyActsTable.maximumPerAuthor, "carol": 1])
            // A day later, nothing is left to wait for.
            try EarlyActsTable.sweep(now: Self.start + EarlyActsTable.lifetimeMilliseconds + 10, db)
            #expect(try EarlyActsTable.count(db) == 0)
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
