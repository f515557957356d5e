import Foundation
import GRDB
import Synchronization
import Testing

@testable import ParleyKit

/// Receipts, quotes, reactions, edits and deletes find a message by its author and timestamp (or its conversation and
/// timestamp), once per message that arrives: each lookup is a search of an index on both, not a read of every message
/// the author wrote or the conversation holds.
@Suite struct MessageLookupIndexTests {
    @Test func findingAMessageByItsTimestampSearchesAnIndex() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lookup-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = try ParleyDatabase(path: path, key: try DatabaseKey(bytes: [UInt8](repeating: 3, count: 32)))
        try database.write { db in
            let statements = Mutex<[String]>([])
            db.trace { event in
                if case .statement(let statement) = event { statements.withLock { $0.append(statement.expandedSQL) } }
            }
            _ = try MessagesTable.id(author: "peer", timestamp: 1_000, db)
            _ = try MessagesTable.id(author: "peer", timestamp: 1_000, in: 1, db)
            _ = try MessagesTable.sent(at: 1_000, by: "me", seenBy: "peer", db)
            _ = try MessagesTable.hasReadable(author: "peer", timestamp: 1_000, db)
            _ = try MessagesTable.hasMessage(at: 1_000, in: 1, notBy: "peer", db)
            db.trace(options: [], nil)
            let lookups = statements.withLock { $0 }
            #expect(lookups.count == 5)
            let expected =
                Array(repeating: "messages_by_author_time (author_account_id=? AND timestamp=?)", count: 4)
                + ["messages_by_thread_time (thread_id=? AND timestamp=?)"]
            for (sql, index) in zip(lookups, expected) {
                let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }
                #expect(plan.contains { $0.contains(index) }, "\(sql): \(plan)")
            }
        }
    }
}
