import Foundation
internal import GRDB

/// SQLite through GRDB with and without the encrypting VFS, side by side: bulk inserts, and paging 50 messages from a
/// large history (`parley-client-bench --only database`). It lives in Storage/ because it opens plain GRDB pools, which
/// nothing outside Storage/ may. Not API: only a tool that imports ParleyKit with `@_spi(Benchmarks)` sees it.
@_spi(Benchmarks)
public enum StorageBenchmark {
    /// The measured times.
    public struct Result: Sendable {
        /// Seconds to insert every message, plain and encrypted.
        public let plainFill: Double, encryptedFill: Double
        /// Microseconds per page of 50, plain and encrypted.
        public let plainPage: Double, encryptedPage: Double
    }

    /// Inserts `messages` rows into a plain and an encrypted database in `directory`, then pages through both.
    public static func run(messages: Int, in directory: URL) throws -> Result {
        let plain = try DatabasePool(path: directory.appendingPathComponent("plain.sqlite").path)
        let encrypted = try ParleyDatabase(
            path: directory.appendingPathComponent("encrypted.sqlite").path,
            key: try DatabaseKey(bytes: [UInt8](repeating: 9, count: 32)))
        let schema = """
            CREATE TABLE IF NOT EXISTS bench_messages (id INTEGER PRIMARY KEY AUTOINCREMENT, thread_id INTEGER NOT NULL,
                body TEXT NOT NULL, timestamp INTEGER NOT NULL);
            CREATE INDEX IF NOT EXISTS bench_by_thread ON bench_messages (thread_id, id);
            """
        try plain.write { try $0.execute(sql: schema) }
        try encrypted.write { try $0.execute(sql: schema) }
        return Result(
            plainFill: try fill(plain, messages: messages), encryptedFill: try fill(encrypted.pool, messages: messages),
            plainPage: try page(plain, messages: messages), encryptedPage: try page(encrypted.pool, messages: messages))
    }

    private static func fill(_ writer: some DatabaseWriter, messages: Int) throws -> Double {
        try seconds {
            var written = 0
            while written < messages {
                let batch = min(10_000, messages - written)
                try writer.write { db in
                    let statement = try db.cachedStatement(sql: "INSERT INTO bench_messages (thread_id, body, timestamp) VALUES (?, ?, ?)")
                    for index in written..<(written + batch) {
                        try statement.execute(arguments: [index % 100, "message number \(index) with some ordinary text in it", index])
                    }
                }
                written += batch
            }
        }
    }

    private static func page(_ reader: some DatabaseReader, messages: Int) throws -> Double {
        let rounds = 2000
        let elapsed = try seconds {
            for round in 0..<rounds {
                let conversation = round % 100
                let cursor = Int64(messages - (round * 97) % max(messages / 2, 1))
                _ = try reader.read { db in
                    try Row.fetchAll(
                        db, sql: "SELECT * FROM bench_messages WHERE thread_id = ? AND id < ? ORDER BY id DESC LIMIT 50",
                        arguments: [conversation, cursor])
                }
            }
        }
        return elapsed / Double(rounds) * 1e6
    }

    private static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
