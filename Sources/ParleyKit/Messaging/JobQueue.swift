import Foundation
import GRDB

/// The durable job queue: work that must happen even if the process dies (sends, receipts) is a row committed
/// with the data it concerns, removed only when the work is done.
enum JobQueue {
    /// A queued job.
    struct Job: Sendable {
        let id: Int64
        let kind: String
        let payload: Data
        let attempts: Int
    }

    /// Queues a job, due at once. `now` is recorded as its creation time; it is often the message's timestamp, which a
    /// monotonic clock may have pushed a few milliseconds past the wall clock, so it must not delay the first attempt.
    static func enqueue(kind: String, payload: some Encodable, _ db: Database, now: UInt64) throws {
        try db.execute(sql: "INSERT INTO jobs (kind, payload, not_before, created) VALUES (?, ?, 0, ?)",
                       arguments: [kind, try JSONEncoder().encode(payload), Int64(now)])
    }

    static func due(_ db: Database, now: UInt64, limit: Int = 50) throws -> [Job] {
        try Row.fetchAll(db, sql: "SELECT id, kind, payload, attempts FROM jobs WHERE not_before <= ? ORDER BY id LIMIT ?",
                         arguments: [Int64(now), limit])
            .map { Job(id: $0["id"], kind: $0["kind"], payload: $0["payload"], attempts: $0["attempts"]) }
    }

    static func complete(_ id: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM jobs WHERE id = ?", arguments: [id])
    }

    /// Schedules another attempt with exponential backoff (1 s, 2 s, 4 s … capped at 10 minutes).
    static func retry(_ job: Job, error: String, _ db: Database, now: UInt64) throws {
        let delay = min(UInt64(1000) << UInt64(min(job.attempts, 10)), 600_000)
        try db.execute(sql: "UPDATE jobs SET attempts = attempts + 1, not_before = ?, last_error = ? WHERE id = ?",
                       arguments: [Int64(now + delay), error, job.id])
    }

    static func pendingCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM jobs") ?? 0
    }
}
