import CParleyDatabase
import Foundation
internal import GRDB
internal import GRDBSQLite

/// The client's database: one encrypted SQLite file per account, behind a small transactional interface in the
/// spirit of Signal-iOS's `DB` (read, write, async variants, observers, versioned migrations).
///
/// Every page of the database and of its write-ahead log is sealed with XChaCha20-Poly1305 by the `parley` VFS
/// (CParleyDatabase) under GRDB, so the file holds no plaintext and any modified page is detected.
public final class ParleyDatabase: Sendable {
    /// The underlying GRDB pool (one writer, concurrent readers, WAL). Only Storage/ sees it.
    let pool: DatabasePool
    /// The database file.
    public let path: String

    /// Opens (creating if needed) the database at `path` encrypted with `key`, and migrates it.
    /// - Throws: ``ParleyError/wrongDatabaseKey`` when the file does not open with `key`.
    public init(path: String, key: DatabaseKey) throws {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        self.path = absolute
        try EncryptedStorage.register(path: absolute, key: key)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // A new file gets the reserved bytes each page's nonce and tag need; an existing one already has them.
            var reserve = Int32(PARLEY_VFS_RESERVE)
            _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve)
            guard parley_vfs_is_encrypted(db.sqliteConnection) == 1 else {
                throw ParleyError.databaseCorrupted("the database did not open through the encrypting VFS")
            }
            // Temporary tables and statement journals would bypass the VFS's encryption: keep them in memory.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            // Deleted content (expired and deleted-for-everyone messages) is overwritten with zeros, not left in free pages.
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        do {
            pool = try DatabasePool(path: absolute, configuration: configuration)
            try ClientSchema.migrator.migrate(pool)
        } catch let error as DatabaseError {
            EncryptedStorage.unregister(path: absolute)
            throw EncryptedStorage.translate(error)
        }
    }

    deinit { EncryptedStorage.unregister(path: path) }

    /// Runs `block` in a read transaction.
    func read<T>(_ block: (Database) throws -> T) throws -> T {
        try translating { try pool.read(block) }
    }

    /// Runs `block` in a write transaction: all of it commits or none.
    func write<T>(_ block: (Database) throws -> T) throws -> T {
        try translating { try pool.write(block) }
    }

    /// Copies the write-ahead log into the database file and empties it, so that the page images of content just
    /// erased (a delete for everyone, an expired message) do not stay in it until overwritten. Best effort: while a
    /// reader holds an older snapshot the log waits for it up to the busy timeout, and when it cannot be emptied the
    /// next call does it.
    public func truncateWriteAheadLog() {
        _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }

    /// ``truncateWriteAheadLog()`` without holding the caller's thread while the log waits for readers (up to the
    /// database's busy timeout).
    public func truncateWriteAheadLog() async {
        _ = try? await pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }

    /// Runs `block` in a read transaction off the caller's thread.
    func asyncRead(_ block: @escaping @Sendable (Result<Database, Error>) -> Void) {
        pool.asyncRead(block)
    }

    /// Runs `block` in a write transaction off the caller's thread; `completion` gets its outcome after commit.
    func asyncWrite<T: Sendable>(
        _ block: @escaping @Sendable (Database) throws -> T,
        completion: @escaping @Sendable (Result<T, Error>) -> Void
    ) {
        pool.asyncWrite(block) { _, result in completion(result) }
    }

    /// Runs `block` in a write transaction and awaits its result.
    func awaitableWrite<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await pool.write(block) } catch let error as DatabaseError { throw EncryptedStorage.translate(error) }
    }

    /// Runs `block` in a read transaction and awaits its result.
    func awaitableRead<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await pool.read(block) } catch let error as DatabaseError { throw EncryptedStorage.translate(error) }
    }

    /// Calls `onChange` after every committed transaction that wrote one of `tables`, with the tables written.
    /// Keep the returned token: observation stops when it is released or cancelled.
    func observe(tables: [String], onChange: @escaping @Sendable (DatabaseChange) -> Void) throws -> DatabaseObservation {
        let observer = TableChangeObserver(tables: Set(tables), onChange: onChange)
        try pool.write { db in db.add(transactionObserver: observer, extent: .observerLifetime) }
        return DatabaseObservation(
            AnyDatabaseCancellable { [pool] in
                try? pool.write { db in db.remove(transactionObserver: observer) }
            })
    }

    /// Whether `error` is the database's own failure (I/O, a full disk, a constraint), as opposed to a failure of what
    /// a transaction was working on: pipelines rethrow these, so nothing is committed or acknowledged.
    static func isStorageFailure(_ error: any Error) -> Bool { error is DatabaseError }

    private func translating<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as DatabaseError { throw EncryptedStorage.translate(error) }
    }
}
