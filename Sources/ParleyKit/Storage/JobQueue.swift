import Foundation
internal import GRDB

/// The `jobs` table, the durable job queue: work that must happen even if the process dies (sends, receipts) is
/// committed as a kind and a payload with the data it concerns, removed only when the work is done. Its one owner. What
/// the kinds and payloads mean is Messaging's (``Job``): this table only keeps them.
enum JobQueue {
    /// A row as stored.
    struct StoredJob: Sendable {
        /// Its row.
        let id: Int64
        /// What kind of work it is.
        let kind: String
        /// The work's description (JSON).
        let payload: Data
        /// Attempts so far.
        let attempts: Int
    }

    /// Queues a job of `kind` with `payload`, due at once. `now` is recorded as its creation time; it is often the
    /// message's timestamp, which a monotonic clock may have pushed a few milliseconds past the wall clock, so it must
    /// not delay the first attempt.
    static func enqueue(kind: String, payload: Data, now: UInt64, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO jobs (kind, payload, not_before, created) VALUES (?, ?, 0, ?)",
            arguments: [kind, payload, Int64(now)])
    }

    /// Up to `limit` jobs due at `now`, oldest first.
    static func dueRows(now: UInt64, limit: Int = 50, _ db: Database) throws -> [StoredJob] {
        try Row.fetchAll(
            db, sql: "SELECT id, kind, payload, attempts FROM jobs WHERE not_before <= ? ORDER BY id LIMIT ?",
            arguments: [Int64(clamping: now), limit]
        ).map { row in
            StoredJob(id: row["id"], kind: row["kind"], payload: row["payload"], attempts: row["attempts"])
        }
    }

    /// Removes job `id` (done, or failed for good).
    static func complete(_ id: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM jobs WHERE id = ?", arguments: [id])
    }

    /// Schedules another attempt of job `id`, tried `attempts` times so far, with exponential backoff (1 s, 2 s, 4 s …
    /// capped at 10 minutes).
    static func retry(_ id: Int64, attempts: Int, error: String, now: UInt64, _ db: Database) throws {
        let delay = min(UInt64(1000) << UInt64(min(attempts, 10)), 600_000)
        try db.execute(
            sql: "UPDATE jobs SET attempts = attempts + 1, not_before = ?, last_error = ? WHERE id = ?",
            arguments: [Int64(now + delay), error, id])
    }

    /// When the earliest job comes due (milliseconds since 1970), if any is queued.
    static func earliestDue(_ db: Database) throws -> UInt64? {
        try Int64.fetchOne(db, sql: "SELECT MIN(not_before) FROM jobs").map { UInt64(max($0, 0)) }
    }

    /// The payloads of the jobs of `kind` created at `created`.
    static func payloads(kind: String, createdAt created: UInt64, _ db: Database) throws -> [Data] {
        try Data.fetchAll(db, sql: "SELECT payload FROM jobs WHERE kind = ? AND created = ?", arguments: [kind, Int64(clamping: created)])
    }

    /// How many jobs are queued.
    static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM jobs") ?? 0
    }
}
