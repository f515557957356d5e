import Foundation
import GRDB
@_spi(Inspection) @testable import ParleyKit
import Testing

/// Reading a conversation sends read receipts that its peer's client takes: none names more messages than a receipt
/// may (`MessageContent.maximumReceiptTimestamps`), however many were unread.
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
            try client.markRead(threadId: try #require(try client.threadId(with: "writer")))
            let receipts = try client.database.read { db in
                try Data.fetchAll(db, sql: "SELECT payload FROM jobs WHERE kind = 'receipt'")
            }.map { try JSONDecoder().decode(MessageReceiver.ReceiptJob.self, from: $0) }
            #expect(receipts.map(\.timestamps.count).sorted() == [1, MessageContent.maximumReceiptTimestamps])
            #expect(Set(receipts.flatMap(\.timestamps)).count == unread)
        }
    }
}
