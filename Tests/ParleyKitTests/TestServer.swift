import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import ParleyKit
import ParleyServer

/// A real parley-server (HTTP + WebSocket, SQLite) in this process on a loopback port, and clients for it.
final class TestServer: @unchecked Sendable {
    let directory: URL
    /// Idle connections close quickly, so that ``pause()`` (a graceful shutdown) does not wait for them.
    let http = HTTPClient(eventLoopGroupProvider: .singleton,
                          configuration: HTTPClient.Configuration(connectionPool: .init(idleTimeout: .milliseconds(100))))
    private var task: Task<Void, Error>?
    private(set) var baseURL = ""
    private var dependencies: ServerDependencies!
    private var port = 0
    /// The operator credential of test servers.
    static let operatorToken = "operator-token-for-tests"

    /// A server whose PIN backups use `backup` (default: a random OPRF key and the default limits).
    init(backup: BackupSettings? = nil) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-kit-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try SQLiteStore(path: directory.appendingPathComponent("server.sqlite").path)
        var limits = ServerLimits()
        limits.rateLimits = limits.rateLimits.scaled(by: 100)
        dependencies = ServerDependencies(
            store: store, attachments: try AttachmentStore(directory: directory.appendingPathComponent("blobs")),
            hasher: CredentialHasher(), limits: limits,
            contentDetection: ContentDetectionSettings(importDirectory: directory.appendingPathComponent("imports"),
                                                       operatorToken: Self.operatorToken),
            backup: backup)
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

    /// Runs `body` against a fresh server (PIN backups as `backup` says) and shuts it down afterwards, whether `body`
    /// succeeded or not.
    static func run(backup: BackupSettings? = nil, _ body: (TestServer) async throws -> Void) async throws {
        let server = try await TestServer(backup: backup)
        do {
            try await body(server)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    /// A client with a fresh encrypted database, on the clock `now` (milliseconds since 1970).
    func client(_ name: String, now: @escaping @Sendable () -> UInt64 = { UInt64(Date().timeIntervalSince1970 * 1000) }) throws -> ParleyClient {
        let folder = directory.appendingPathComponent(name + "-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = try ParleyDatabase(path: folder.appendingPathComponent("client.sqlite").path,
                                          key: try DatabaseKey.fromKeyFile(at: folder.appendingPathComponent("client.key")))
        return ParleyClient(database: database, api: ParleyServerClient(baseURL: baseURL, http: http),
                            attachmentDirectory: folder.appendingPathComponent("attachments"), now: now)
    }

    /// The server's SQLite file, for checking what the server stored.
    var serverDatabasePath: String { directory.appendingPathComponent("server.sqlite").path }

    func shutdown() async {
        task?.cancel()
        _ = await task?.result
        try? await http.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }
}
