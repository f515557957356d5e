import Foundation
internal import GRDB

/// ``ServerStore`` on SQLite through GRDB: one file, WAL mode, schema changes by versioned migrations.
public final class SQLiteStore: ServerStore {
    let database: DatabasePool
    /// Accounts with their devices, as ``accountWithDevices(id:)`` reads them for every request; the writes below
    /// invalidate what they change (one process owns a SQLite file, so nothing else can).
    let accounts = AccountCache()

    /// Opens (creating if needed) the database at `path` and migrates it.
    ///
    /// With ``SQLiteDurability/processCrash`` (the default) a commit is in the operating system's hands when it
    /// returns: killing the server loses nothing, a power cut may lose the last commits (never corrupting the file).
    /// ``SQLiteDurability/powerLoss`` also waits for the disk (an fsync per commit).
    public init(path: String, durability: SQLiteDurability = .processCrash) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: durability == .powerLoss ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
            // 32 MiB of page cache per connection (SQLite's default is 2 MiB): a 10-million-hash bank's index and the
            // mailbox's hot pages stay in memory.
            try db.execute(sql: "PRAGMA cache_size = -32768")
        }
        database = try DatabasePool(path: path, configuration: configuration)
        try SQLiteSchema.migrator.migrate(database)
        // One process owns a SQLite file: sockets recorded by an earlier run (killed before it could forget them) are gone.
        try database.write { db in try db.execute(sql: "DELETE FROM device_sockets") }
    }

    public func ping() async throws {
        try await database.read { db in _ = try Int.fetchOne(db, sql: "SELECT 1") }
    }
}
