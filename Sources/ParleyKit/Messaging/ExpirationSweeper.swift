import Foundation
import Logging

/// Deletes disappearing messages whose time has come: their rows, reactions, earlier versions, receipts and
/// attachments, and the files Parley downloaded for them. The deadlines live in the database (`expire_at`), so a
/// sweep after a restart catches up on everything that expired while the process was down. The database erases
/// deleted content (`secure_delete`), and a sweep that deleted anything checkpoints the write-ahead log so old
/// page images do not linger there either. So do acts whose message did not come in time (``EarlyActsTable``).
struct ExpirationSweeper: Sendable {
    let database: ParleyDatabase

    /// Deletes every message that expired at or before `now` (milliseconds); returns how many.
    @discardableResult
    func sweep(now: UInt64) throws -> Int {
        let (deleted, forgotten) = try database.write { db -> (Int, Int) in
            let forgotten = try EarlyActsTable.sweep(now: now, db)
            let expired = try MessagesTable.expired(now: now, db)
            guard !expired.isEmpty else { return (0, forgotten) }
            for message in expired {
                try ConversationActions.erase(message.id, db)
                try MessagesTable.delete(message.id, db)
            }
            for conversationId in Set(expired.map(\.conversationId)) { try ConversationsTable.recount(conversationId: conversationId, db) }
            return (expired.count, forgotten)
        }
        if deleted > 0 || forgotten > 0 { database.truncateWriteAheadLog() }
        return deleted
    }

    /// When the next message expires (milliseconds since 1970), if any has a running timer.
    func nextExpiry() throws -> UInt64? {
        try database.read(MessagesTable.nextExpiry)
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
