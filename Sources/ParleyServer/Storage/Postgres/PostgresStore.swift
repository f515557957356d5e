import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// ``ServerStore`` on PostgreSQL through a PostgresNIO connection pool, for several server processes sharing one database.
///
/// The store is a `Service`: ``run()`` drives the pool and must be running (in a `ServiceGroup` or a task of its own)
/// before any other call. Then ``migrate()`` brings the schema up to date and prepares the mailbox partitions:
///
/// ```swift
/// let store = try PostgresStore(url: "postgres://parley:secret@db.internal/parley", logger: logger)
/// let group = ServiceGroup(services: [store, server], logger: logger)
/// // in a task that runs beside the group:
/// try await store.migrate()
/// ```
///
/// Each method runs as one transaction, with the semantics of ``SQLiteStore``. Envelopes live in a mailbox partitioned
/// by month, and `storeEnvelopes` tells other processes about them through ``listenForMailboxChanges(_:)``.
public final class PostgresStore: ServerStore, Service {
    let client: PostgresClient
    let logger: Logger
    /// Heads this store's mailbox notifications so its own listener can skip them.
    let instanceId: String
    /// Accounts with their devices, as ``accountWithDevices(id:)`` reads them for every request. This store's writes
    /// invalidate what they change and announce it on ``AccountNotification/channel``; other processes' writes reach
    /// it through ``listenForAccountChanges(onChange:)`` (``AccountChangeListener``), and entries expire after 10 s, which bounds
    /// a copy's staleness when no listener runs or a notification was missed.
    let accounts = AccountCache(lifetime: .seconds(10))

    /// A store on the database at `url` (`postgres://user[:password]@host[:port][/database]`, also `postgresql://`,
    /// percent-encoded, port 5432 by default), connecting without TLS. Connects only once ``run()`` runs.
    ///
    /// - Parameters:
    ///   - instanceId: Names this process in mailbox notifications; unique per process, no whitespace.
    ///   - logger: Receives the pool's background messages and the store's warnings.
    /// - Throws: ``PostgresStoreError/invalidURL(_:)`` for a malformed URL, ``PostgresStoreError/invalidInstanceId(_:)``.
    public init(url: String, instanceId: String = UUID().uuidString.lowercased(), logger: Logger) throws {
        guard !instanceId.isEmpty, !instanceId.contains(where: \.isWhitespace) else {
            throw PostgresStoreError.invalidInstanceId(instanceId)
        }
        let configuration = try PostgresURL(url).configuration
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
        self.instanceId = instanceId
    }

    /// Runs the connection pool until the task is cancelled or the service group shuts down gracefully.
    public func run() async throws {
        await client.run()
    }

    public func ping() async throws {
        try await withConnection { connection in try await perform("SELECT 1", on: connection) }
    }

    // MARK: Helpers shared with the other PostgresStore files

    /// Runs `body` in a transaction on one pooled connection; rethrows the failure itself rather than PostgresNIO's wrapper,
    /// so callers see ``ServerStoreError`` and the server's `PSQLError`.
    func transaction<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        do {
            return try await client.withTransaction(logger: logger) { connection in try await body(connection) }
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error.commitError ?? error.beginError ?? error
        }
    }

    /// Runs `body` on one pooled connection, outside a transaction.
    func withConnection<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        try await client.withConnection { connection in try await body(connection) }
    }

    /// Runs a statement, reading its result to the end so that an error raised while it executes is thrown here.
    func perform(_ query: PostgresQuery, on connection: PostgresConnection) async throws {
        for try await _ in try await connection.query(query, logger: logger) {}
    }

    /// The single `bigint` a `SELECT count(*) ...` returns.
    func count(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> Int {
        var result: Int64?
        for try await value in try await connection.query(query, logger: logger).decode(Int64.self) { result = value }
        guard let result else { throw PostgresStoreError.missingRow("a count") }
        return Int(result)
    }

    /// The single `boolean` a `SELECT EXISTS (...)` returns.
    func exists(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> Bool {
        var result: Bool?
        for try await value in try await connection.query(query, logger: logger).decode(Bool.self) { result = value }
        guard let result else { throw PostgresStoreError.missingRow("an existence check") }
        return result
    }

    /// Timestamps are `UInt64` in Swift and `BIGINT` in the database; none the server makes comes near `Int64.max`.
    static func bigint(_ milliseconds: UInt64) -> Int64 { Int64(clamping: milliseconds) }
}
