import Foundation
import GRDB
import Testing

@_spi(Inspection) @testable import ParleyKit

/// Reading a conversation sends read receipts that its peer's client takes: none names more messages than a receipt
/// may (`MessageContent.maximumReceiptTimestamps`), however many were unread. Reading some messages marks those alone.
@Suite struct ReadReceiptBatchTests {
    @Test func readingMoreMessagesThanAReceiptMayNameSendsSeveralReceipts() async throws {
        try await TestServer.run { server in
            let client = try server.client("reader")
            _ = try await client.accounts.register(username: "reader")
            let unread = MessageContent.maximumReceiptTimestamps + 1
            try await client.database.awaitableWrite { db in
                for index in 0..<unread {
                    let origin = HostilePeerTests.origin("writer", at: 1_000 + UInt64(index), peer: "writer")
                    _ = try ConversationActions.apply(DataMessage(body: "message \(index)"), from: origin, db)
                }
            }
            try client.markRead(conversationId: try #require(try client.conversationId(with: "writer")))
            let receipts = try client.database.read { db in
                try Data.fetchAll(db, sql: "SELECT payload FROM jobs WHERE kind = 'receipt'")
            }.map { try JSONDecoder().decode(MessageReceiver.ReceiptJob.self, from: $0) }
            #expect(receipts.map(\.timestamps.count).sorted() == [1, MessageContent.maximumReceiptTimestamps])
            #expect(Set(receipts.flatMap(\.timestamps)).count == unread)
        }
    }

    @Test func markingSomeMessagesReadLeavesTheRestOfTheConversationUnread() async throws {
        try await TestServer.run { server in
            let client = try server.client("reader")
            _ = try await client.accounts.register(username: "reader")
            try await client.database.awaitableWrite { db in
                for index in 0..<4 {
                    let origin = HostilePeerTests.origin("writer", at: 1_000 + UInt64(index), peer: "writer")
                    _ = try ConversationActions.apply(DataMessage(body: "message \(index)"), from: origin, db)
                }
            }
            let conversation = try #require(try client.conversationId(with: "writer"))
            let second = try #require(try client.message(author: "writer", timestamp: 1_001))
            let third = try #require(try client.message(author: "writer", timestamp: 1_002))
            // Named twice, and once more after it is read: one receipt, once.
            try client.markRead(messageIds: [second.id, third.id, second.id])
            try client.markRead(messageIds: [second.id])

            #expect(try client.conversations().first { $0.conversationId == conversation }?.unreadCount == 2)
            let unread = try client.database.read { db in try MessagesTable.unreadIncoming(conversationId: conversation, db) }
            #expect(unread.map(\.timestamp).sorted() == [1_000, 1_003])
            let receipts = try client.database.read { db in
                try Data.fetchAll(db, sql: "SELECT payload FROM jobs WHERE kind = 'receipt'")
            }.map { try JSONDecoder().decode(MessageReceiver.ReceiptJob.self, from: $0) }
            #expect(receipts.map(\.timestamps) == [[1_001, 1_002]])
            #expect(receipts.allSatisfy { $0.accountId == "writer" && $0.kind == "read" })
        }
    }
}
