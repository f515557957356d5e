import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import ParleyServer
import ParleyTestSupport

@testable import ParleyKit

/// A real parley-server (HTTP + WebSocket) in this process on a loopback port, and clients for it. The backend is
/// SQLite unless `PARLEY_SERVER_BACKEND=postgres`, which gives the server a fresh database on the PostgreSQL at
/// `PARLEY_TEST_DATABASE_URL` (`make test` runs the suites that ask for it both ways).
final class TestServer: @unchecked Sendable {
    let directory: URL
    /// Idle connections close quickly, so that ``pause()`` (a graceful shutdown) does not wait for them.
    let http = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(connectionPool: .init(idleTimeout: .milliseconds(100))))
    private var task: Task<Void, Error>?
    private(set) var baseURL = ""
    private var dependencies: ServerDependencies!
    /// The same server's dependencies with another plain-name policy (what a restart with the option changed gives).
    private var dependenciesWith: ((PlainAccountNames) -> ServerDependencies)!
    private var port = 0
    /// The PostgreSQL database and its connection pool, when that is the backend.
    private var postgres: (database: TestDatabase, pool: Task<Void, Error>)?
    /// The operator credential of test servers.
    static let operatorToken = "operator-token-for-tests"

    /// A server whose PIN backups use `backup` (default: a random OPRF key and the default limits), with its limits
    /// changed by `adjusting` (after the rate limits are scaled up a hundredfold for tests).
    init(backup: BackupSettings? = nil, adjusting: (inout ServerLimits) -> Void = { _ in }) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-kit-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store: any ServerStore
        if ProcessInfo.processInfo.environment["PARLEY_SERVER_BACKEND"] == "postgres" {
            let database = try TestDatabase()
            try await database.create()
            let postgresStore = try PostgresStore(url: database.url, logger: Logger(label: "test-postgres"))
            postgres = (database, Task { try await postgresStore.run() })
            try await postgresStore.migrate()
            store = postgresStore
        } else {
            store = try SQLiteStore(path: directory.appendingPathComponent("server.sqlite").path)
        }
        var limits = ServerLimits()
        limits.rateLimits = limits.rateLimits.scaled(by: 100)
        adjusting(&limits)
        let attachments = try AttachmentStore(directory: directory.appendingPathComponent("blobs"))
        let contentDetection = ContentDetectionSettings(
            importDirectory: directory.appendingPathComponent("imports"), operatorToken: Self.operatorToken)
        let backup = backup ?? BackupSettings()
        let groupCredentials = GroupCredentialIssuer()
        let sealedSender = SealedSenderSettings()
        let push = PushSettings.ephemeral()
        dependenciesWith = { names in
            ServerDependencies(
                store: store, attachments: attachments, hasher: CredentialHasher(), limits: limits, contentDetection: contentDetection,
                backup: backup, plainAccountNames: names, sealedSender: sealedSender, push: push, groupCredentials: groupCredentials)
        }
        dependencies = dependenciesWith(.allowed)
        try await serve()
    }

    private func serve() async throws {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "test-server")
        logger.logLevel = .critical
        let app = ParleyServerApplication.make(dependencies, port: port, logger: logger) { port in continuation.yield(port) }
        task = Task { try await app.run() }
        for await port in ports {
            self.port = port
            baseURL = "http://127.0.0.1:\(port)"
            break
        }
    }

    /// Stops answering (connections are refused) and keeps every file: a server that is down.
    func pause() async {
        try? await Task.sleep(for: .milliseconds(200))  // the client's idle connections close
        task?.cancel()
        _ = await task?.result
    }

    /// Serves again on the same port, over the same store.
    func resume() async throws {
        try await serve()
    }

    /// Restarts the server over the same store and keys with `--plain-account-names` set to `names`.
    func restart(plainAccountNames names: PlainAccountNames) async throws {
        await pause()
        dependencies = dependenciesWith(names)
        try await serve()
    }

    /// Runs `body` against a fresh server (PIN backups as `backup` says) and shuts it down afterwards, whether `body`
    /// succeeded or not.
    static func run(
        backup: BackupSettings? = nil, adjusting: (inout ServerLimits) -> Void = { _ in },
        _ body: (TestServer) async throws -> Void
    ) async throws {
        let server = try await TestServer(backup: backup, adjusting: adjusting)
        do {
            try await body(server)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    /// A client with a fresh encrypted database, on the clock `now` (milliseconds since 1970), talking to this server or,
    /// given `baseURL`, to whatever answers there (a ``HostileServer`` in front of this one).
    func client(
        _ name: String, via baseURL: String? = nil,
        now: @escaping @Sendable () -> UInt64 = { UInt64(Date().timeIntervalSince1970 * 1000) }
    ) throws -> ParleyClient {
        let folder = directory.appendingPathComponent(name + "-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = try ParleyDatabase(
            path: folder.appendingPathComponent("client.sqlite").path,
            key: try DatabaseKey.fromKeyFile(at: folder.appendingPathComponent("client.key")))
        return ParleyClient(
            database: database, api: ParleyServerClient(baseURL: baseURL ?? self.baseURL, http: http),
            attachmentDirectory: folder.appendingPathComponent("attachments"), now: now)
    }

    /// The server's SQLite file, for checking what the server stored (there is none when ``usesPostgres``).
    var serverDatabasePath: String { directory.appendingPathComponent("server.sqlite").path }
    /// Whether the backend is PostgreSQL.
    var usesPostgres: Bool { postgres != nil }

    /// The server's zkgroup keys (what group credentials are issued with).
    var groupCredentials: GroupCredentialIssuer { dependencies.groupCredentials }

    /// The envelopes the server's store holds for one device (read from the backend, not through the API).
    func storedEnvelopes(accountId: String, deviceId: UInt32) async throws -> [StoredEnvelope] {
        try await dependencies.store.pendingEnvelopes(accountId: accountId, deviceId: deviceId, notBefore: 0, limit: 1000)
    }

    func shutdown() async {
        task?.cancel()
        _ = await task?.result
        try? await http.shutdown()
        if let postgres {
            postgres.pool.cancel()
            try? await postgres.database.drop()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
