import Foundation
import GRDB

/// The `jobs` table, the durable job queue: work that must happen even if the process dies (sends, receipts) is a
/// ``Job`` committed with the data it concerns, removed only when the work is done. Its one owner.
enum JobQueue {
    /// A job as queued.
    struct Queued: Sendable {
        /// Its row.
        let id: Int64
        /// The job; `nil` when its row cannot be read (``unreadable``).
        let job: Job?
        /// Why the row cannot be read, when it cannot.
        let unreadable: String?
        /// Attempts so far.
        let attempts: Int
    }

    /// Queues `job`, due at once. `now` is recorded as its creation time; it is often the message's timestamp, which a
    /// monotonic clock may have pushed a few milliseconds past the wall clock, so it must not delay the first attempt.
    static func enqueue(_ job: Job, now: UInt64, _ db: Database) throws {
        try db.execute(sql: "INSERT INTO jobs (kind, payload, not_before, created) VALUES (?, ?, 0, ?)",
                       arguments: [job.kind, try job.payload(), Int64(now)])
    }

    /// Up to `limit` jobs due at `now`, oldest first.
    static func due(now: UInt64, limit: Int = 50, _ db: Database) throws -> [Queued] {
        try Row.fetchAll(db, sql: "SELECT id, kind, payload, attempts FROM jobs WHERE not_before <= ? ORDER BY id LIMIT ?",
                         arguments: [Int64(clamping: now), limit]).map { row in
            do {
                return Queued(id: row["id"], job: try Job(kind: row["kind"], payload: row["payload"]), unreadable: nil, attempts: row["attempts"])
            } catch {
                return Queued(id: row["id"], job: nil, unreadable: "\(error)", attempts: row["attempts"])
            }
        }
    }

    /// Removes job `id` (done, or failed for good).
    static func complete(_ id: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM jobs WHERE id = ?", arguments: [id])
    }

    /// Schedules another attempt with exponential backoff (1 s, 2 s, 4 s … capped at 10 minutes).
    static func retry(_ queued: Queued, error: String, now: UInt64, _ db: Database) throws {
        let delay = min(UInt64(1000) << UInt64(min(queued.attempts, 10)), 600_000)
        try db.execute(sql: "UPDATE jobs SET attempts = attempts + 1, not_before = ?, last_error = ? WHERE id = ?",
                       arguments: [Int64(now + delay), error, queued.id])
    }

    /// When the earliest job comes due (milliseconds since 1970), if any is queued.
    static func earliestDue(_ db: Database) throws -> UInt64? {
        try Int64.fetchOne(db, sql: "SELECT MIN(not_before) FROM jobs").map { UInt64(max($0, 0)) }
    }

    /// Whether the content job (a reaction, an edit, a delete, a timer change) sent at `timestamp` is still queued. Such
    /// a job is queued at its own timestamp, so only the jobs created then are read.
    static func holdsContent(sentAt timestamp: UInt64, _ db: Database) throws -> Bool {
        try Data.fetchAll(db, sql: "SELECT payload FROM jobs WHERE kind = 'content' AND created = ?", arguments: [Int64(clamping: timestamp)])
            .contains { payload in
                guard case .content(let job) = try? Job(kind: "content", payload: payload) else { return false }
                // A group-state correction is content queued at the wall clock's time: never an act.
                return job.timestamp == timestamp && job.message.group?.state == nil
            }
    }

    /// How many jobs are queued.
    static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM jobs") ?? 0
    }
}
