import Foundation
import GRDB
import ParleyProtocol
import Testing

@_spi(Inspection) @testable import ParleyKit

/// Retry receipts through a real server (SQLite, and PostgreSQL when `make test` asks): a receiver that lost its
/// session asks for the message again and shows it once; a flood of retry receipts buys at most one resend; the send
/// log stays bounded.
@Suite(.serialized) struct RetryReceiptDeliveryTests {
    static func pendingCount(_ client: ParleyClient) async throws -> Int {
        try await client.api.mailbox(as: try client.credentials()).messages.count
    }

    @Test func aReceiverWhoseSessionWasLostRecoversTheMessageOnce() async throws {
        try await TestServer.run { server in
            let (alice, bob, aliceId, bobId) = try await SealedSenderDeliveryTests.acquainted(server)
            // Bob loses his session with Alice (a restore from an old backup, a corrupted record).
            try await bob.database.awaitableWrite { db in
                try db.execute(sql: "DELETE FROM sessions WHERE address = ?", arguments: [aliceId])
            }

            try alice.sender.enqueue(body: "lost in the break", to: bobId)
            _ = try await alice.runJobs()
            let outcomes = try await bob.receiveOnce()
            #expect(outcomes.contains { if case .undecryptable = $0 { true } else { false } })
            // Undecryptable: the message, and the delivery receipt Alice sent before it on the same session.
            #expect(try ConversationFeatureTests.messages(bob, with: aliceId).filter { !$0.outgoing }.last?.status == .undecryptable)

            // Bob's retry receipt; Alice archives the broken session and resends on a fresh one.
            _ = try await bob.runJobs()
            _ = try await alice.receiveOnce()
            _ = try await alice.runJobs()
            _ = try await bob.receiveOnce()
            let recovered = try ConversationFeatureTests.messages(bob, with: aliceId).filter { !$0.outgoing }
            #expect(recovered.map(\.body) == ["hello bob", "lost in the break"])
            #expect(!recovered.contains { $0.status == .undecryptable })
            #expect(try bob.conversations().first { $0.accountId == aliceId }?.unreadCount == 2)

            // The repaired session carries on both ways.
            try alice.sender.enqueue(body: "and after", to: bobId)
            try bob.sender.enqueue(body: "all good", to: aliceId)
            _ = try await alice.runJobs()
            _ = try await bob.runJobs()
            _ = try await bob.receiveOnce()
            _ = try await alice.receiveOnce()
            #expect(try ConversationFeatureTests.messages(bob, with: aliceId).last?.body == "and after")
            #expect(try ConversationFeatureTests.messages(alice, with: bobId).last?.body == "all good")
        }
    }

    @Test func aFloodOfRetryReceiptsBuysAtMostOneResend() async throws {
        try await TestServer.run { server in
            let (alice, bob, aliceId, bobId) = try await SealedSenderDeliveryTests.acquainted(server)
            try alice.sender.enqueue(body: "once", to: bobId)
            _ = try await alice.runJobs()
            // Bob has not read it yet (a delivery receipt would let Alice drop her copy) and asks for it five times.
            let envelope = try #require(try await bob.api.mailbox(as: try bob.credentials()).messages.last)
            let sent = try #require(try ConversationFeatureTests.messages(alice, with: bobId).last)

            let request = RetryReceipts.RequestJob(
                accountId: aliceId, deviceId: 1, timestamp: sent.timestamp, type: 2,
                ciphertext: Data(base64Encoded: envelope.content) ?? Data())
            try await bob.database.awaitableWrite { db in
                for _ in 0..<5 { try JobQueue.enqueue(.retryRequest(request), now: 0, db) }
            }
            #expect(try await bob.runJobs().failed == 0)
            let pendingBefore = try await Self.pendingCount(bob)
            _ = try await alice.receiveOnce()
            #expect(try await alice.runJobs().failed == 0)
            // One resend reached Bob beside the original (shown once), the other four found the entry answered.
            #expect(try await Self.pendingCount(bob) == pendingBefore + 1)
            _ = try await bob.receiveOnce()
            #expect(try ConversationFeatureTests.messages(bob, with: aliceId).filter { $0.body == "once" }.count == 1)
            let resent = try alice.database.read { db in
                try Bool.fetchOne(
                    db, sql: "SELECT resent FROM message_send_log WHERE account_id = ? AND timestamp = ?",
                    arguments: [bobId, Int64(sent.timestamp)])
            }
            #expect(resent == true)
        }
    }

    @Test func theSendLogIsBoundedInAgeAndCount() async throws {
        try await TestServer.run { server in
            let client = try server.client("logger")
            let day = MessageSendLog.maximumAge
            try await client.database.awaitableWrite { db in
                try MessageSendLog.record([1, 2, 3], kind: .direct, to: "old", devices: [1], timestamp: 1, now: 1_000, db)
                for index in 0..<(MessageSendLog.maximumEntries + 10) {
                    try MessageSendLog.record(
                        [4], kind: .group(conversationId: 7), to: "peer", devices: [1],
                        timestamp: UInt64(index + 2), now: day + 2_000 + UInt64(index), db)
                }
            }
            let (count, old, oldestKept) = try client.database.read { db in
                (
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message_send_log") ?? 0,
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message_send_log WHERE account_id = 'old'") ?? 0,
                    try Int64.fetchOne(db, sql: "SELECT MIN(timestamp) FROM message_send_log") ?? 0
                )
            }
            #expect(count == MessageSendLog.maximumEntries && old == 0 && oldestKept == 12)
            let entry = try client.database.read { db in try MessageSendLog.unansweredEntry(to: "peer", deviceId: 1, timestamp: 12, db) }
            #expect(entry == MessageSendLog.Entry(plaintext: [4], kind: .group(conversationId: 7)))
        }
    }

    @Test func deletingAMessageErasesItsAndItsEditsCopiesFromTheSendLog() async throws {
        try await TestServer.run { server in
            let (alice, _, _, bobId) = try await SealedSenderDeliveryTests.acquainted(server)
            let id = try alice.sender.enqueue(body: "first words", to: bobId)
            _ = try await alice.runJobs()
            let editTimestamp = try alice.sender.edit(id, body: "second thoughts")
            _ = try await alice.runJobs()
            func logged(_ timestamp: UInt64) throws -> Int {
                try alice.database.read { db in
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message_send_log WHERE timestamp = ?", arguments: [Int64(timestamp)])
                        ?? 0
                }
            }
            let original = try #require(try alice.message(id: id)).timestamp
            #expect(try logged(original) > 0 && logged(editTimestamp) > 0)  // Bob has not confirmed them yet
            try alice.sender.deleteForEveryone(id)
            #expect(try logged(original) == 0 && logged(editTimestamp) == 0)
        }
    }

    @Test func onlyThePrimaryDeviceRotatesTheProfileKey() async throws {
        try await TestServer.run { server in
            let p = try await ConversationFeatureTests.people(server)
            await #expect(throws: ParleyError.self) { try await p.bobLaptop.accounts.rotateProfileKey() }
            #expect(try p.bobLaptop.accounts.profileKey() == (try p.bobPhone.accounts.profileKey()))
        }
    }
}
