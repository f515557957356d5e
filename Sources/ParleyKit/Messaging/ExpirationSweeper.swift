import Foundation
import GRDB
import Logging

/// Deletes disappearing messages whose time has come: their rows, reactions, earlier versions, receipts and
/// attachments, and the files Parley downloaded for them. The deadlines live in the database (`expire_at`), so a
/// sweep after a restart catches up on everything that expired while the process was down. The database erases
/// deleted content (`secure_delete`), and a sweep that deleted anything checkpoints the write-ahead log so old
/// page images do not linger there either.
struct ExpirationSweeper: Sendable {
    let database: ParleyDatabase

    /// Deletes every message that expired at or before `now` (milliseconds); returns how many.
    @discardableResult
    func sweep(now: UInt64) throws -> Int {
        let deleted = try database.write { db -> Int in
            let expired = try Row.fetchAll(db, sql: "SELECT id, thread_id FROM messages WHERE expire_at IS NOT NULL AND expire_at <= ?",
                                           arguments: [Int64(now)])
            guard !expired.isEmpty else { return 0 }
            for row in expired {
                try ConversationActions.erase(row["id"], db)
                try db.execute(sql: "DELETE FROM messages WHERE id = ?", arguments: [row["id"] as Int64])
            }
            for threadId in Set(expired.map { $0["thread_id"] as Int64 }) {
                try db.execute(sql: """
                    UPDATE threads SET last_message_id = (SELECT max(id) FROM messages WHERE thread_id = ?),
                        unread_count = (SELECT count(*) FROM messages WHERE thread_id = ? AND read = 0 AND outgoing = 0)
                    WHERE id = ?
                    """, arguments: [threadId, threadId, threadId])
            }
            return expired.count
        }
        if deleted > 0 { _ = try? database.pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) } }
        return deleted
    }

    /// When the next message expires (milliseconds since 1970), if any has a running timer.
    func nextExpiry() throws -> UInt64? {
        try database.read { db in
            try Int64.fetchOne(db, sql: "SELECT min(expire_at) FROM messages WHERE expire_at IS NOT NULL").map(UInt64.init)
        }
    }

    /// Sweeps now and whenever the next message is due (at least every `idle`), until cancelled. A sweep that fails
    /// is logged and retried with growing pauses (up to `idle`), never in a tight loop.
    func run(idle: Duration = .seconds(60), now: @escaping @Sendable () -> UInt64, logger: Logger) async {
        var failures = 0
        while !Task.isCancelled {
            var wait = idle
            do {
                try sweep(now: now())
                failures = 0
                if let next = try nextExpiry() { wait = min(idle, .milliseconds(Int64(clamping: next &- min(next, now())))) }
            } catch {
                failures += 1
                logger.warning("disappearing-message sweep failed", metadata: ["error": "\(error)", "attempt": "\(failures)"])
                wait = min(idle, .milliseconds(500 << min(failures, 7)))
            }
            try? await Task.sleep(for: max(wait, .milliseconds(50)))
        }
    }
}
