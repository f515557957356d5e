import ArgumentParser
import Foundation
import Logging
import ParleyAPI
import ParleyServer
import ServiceLifecycle

/// `parley-server [serve]`: starts the server. With no flags it keeps everything under ./parley-data (SQLite);
/// `--database-url postgres://…` stores accounts, keys and mailboxes in PostgreSQL instead (attachments stay files).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the server (the default command).")

    private static let environment = ProcessInfo.processInfo.environment
    /// The longest a mailbox or a seen-hash bank may keep what it holds.
    static let maximumTTLDays = 3650

    @Option(help: "Address to listen on (environment: PARLEY_HOST).")
    var host = environment["PARLEY_HOST"] ?? "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one (environment: PARLEY_PORT).")
    var port = Int(environment["PARLEY_PORT"] ?? "") ?? 8080

    @Option(
        help:
            "Port for the gRPC key service (seed 002's SignalE2EEService, HTTP/2); unset: no gRPC listener; 0 picks a free port (environment: PARLEY_GRPC_PORT)."
    )
    var grpcPort: Int?

    private var resolvedGRPCPort: Int? { grpcPort ?? Self.environment["PARLEY_GRPC_PORT"].flatMap { Int($0) } }

    @Option(help: "PEM certificate chain for TLS on the gRPC port, with --grpc-tls-key (environment: PARLEY_GRPC_TLS_CERTIFICATE).")
    var grpcTLSCertificate: String?

    @Option(help: "PEM private key for TLS on the gRPC port (environment: PARLEY_GRPC_TLS_KEY).")
    var grpcTLSKey: String?

    /// The TLS files for the gRPC port, from the flags or the environment.
    private var grpcTLS: GRPCKeyServer.TLSFiles? {
        guard let certificate = grpcTLSCertificate ?? Self.environment["PARLEY_GRPC_TLS_CERTIFICATE"],
            let key = grpcTLSKey ?? Self.environment["PARLEY_GRPC_TLS_KEY"]
        else { return nil }
        return GRPCKeyServer.TLSFiles(certificateChain: certificate, privateKey: key)
    }

    @Option(help: "Directory for the SQLite database and attachments (environment: PARLEY_DATA_DIR).")
    var dataDirectory = environment["PARLEY_DATA_DIR"] ?? "./parley-data"

    @Option(
        help:
            "What a SQLite commit survives: process (a killed server loses nothing) or power (also a power cut; an fsync per commit, much slower) (environment: PARLEY_SQLITE_DURABILITY)."
    )
    var sqliteDurability = environment["PARLEY_SQLITE_DURABILITY"] ?? "process"

    @Option(help: "PostgreSQL URL, postgres://user:password@host:port/database (environment: PARLEY_DATABASE_URL).")
    var databaseURL: String?

    @Option(help: "Days an unacknowledged message is kept (environment: PARLEY_MESSAGE_TTL_DAYS).")
    var messageTTLDays = Int(environment["PARLEY_MESSAGE_TTL_DAYS"] ?? "") ?? 30

    @Option(help: "Largest attachment in bytes (environment: PARLEY_ATTACHMENT_MAX_BYTES).")
    var attachmentMaxBytes = Int64(environment["PARLEY_ATTACHMENT_MAX_BYTES"] ?? "") ?? 100 * 1024 * 1024

    @Option(help: "Multiplies every per-account rate limit, e.g. 1000 for load tests (environment: PARLEY_RATE_LIMIT_SCALE).")
    var rateLimitScale = Double(environment["PARLEY_RATE_LIMIT_SCALE"] ?? "") ?? 1

    @Option(help: "Seconds between WebSocket keep-alive pings (environment: PARLEY_KEEPALIVE_SECONDS).")
    var keepAliveSeconds = Int(environment["PARLEY_KEEPALIVE_SECONDS"] ?? "") ?? 30

    @Option(help: "Open connections in all; more are answered 503 and closed (environment: PARLEY_MAX_CONNECTIONS).")
    var maxConnections = Int(environment["PARLEY_MAX_CONNECTIONS"] ?? "") ?? ConnectionLimits().maximumConnections

    @Option(help: "Open connections from one client address (environment: PARLEY_MAX_CONNECTIONS_PER_ADDRESS).")
    var maxConnectionsPerAddress =
        Int(environment["PARLEY_MAX_CONNECTIONS_PER_ADDRESS"] ?? "") ?? ConnectionLimits().maximumConnectionsPerAddress

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "A reverse proxy in front of the server, by IP address (repeatable; environment: PARLEY_TRUSTED_PROXIES, comma-separated): "
                + "its connections are not capped per address, and requests through it are limited by the client its X-Forwarded-For names."
        ))
    var trustedProxies: [String] = (environment["PARLEY_TRUSTED_PROXIES"] ?? "").split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty }

    @Option(
        help:
            "Seconds a connection has, from its first byte, to send its first complete request head (environment: PARLEY_REQUEST_HEAD_TIMEOUT_SECONDS)."
    )
    var requestHeadTimeoutSeconds = Int(environment["PARLEY_REQUEST_HEAD_TIMEOUT_SECONDS"] ?? "") ?? 10

    @Option(help: "Seconds a connection may send nothing before it is closed (environment: PARLEY_READ_TIMEOUT_SECONDS).")
    var readTimeoutSeconds = Int(environment["PARLEY_READ_TIMEOUT_SECONDS"] ?? "") ?? 90

    @Option(
        help:
            "Who may register: open, token (only with an invite from `parley-server invites create`) or closed (environment: PARLEY_REGISTRATION)."
    )
    var registration = environment["PARLEY_REGISTRATION"] ?? "open"

    @Option(
        help:
            "allowed: accounts may register with a plain name; retired: only without one (usernames the server keeps as hashes), and named accounts' clients are asked to take a username, after which the name is deleted (environment: PARLEY_PLAIN_ACCOUNT_NAMES)."
    )
    var plainAccountNames = environment["PARLEY_PLAIN_ACCOUNT_NAMES"] ?? "allowed"

    @Option(
        help:
            "on: concurrent sends share write transactions (group commit); off: one transaction per send, for comparison (environment: PARLEY_GROUP_COMMIT)."
    )
    var groupCommit = environment["PARLEY_GROUP_COMMIT"] ?? "on"

    @Option(
        help:
            "Operator credential for the hash banks' operator API (deletes, imports); unset disables it (environment: PARLEY_OPERATOR_TOKEN)."
    )
    var operatorToken: String?

    private var resolvedOperatorToken: String? { operatorToken ?? Self.environment["PARLEY_OPERATOR_TOKEN"] }

    @Option(help: "Days a hash stored by a client after a send stays in the seen bank (environment: PARLEY_DCD_SEEN_TTL_DAYS).")
    var dcdSeenTTLDays = Int(environment["PARLEY_DCD_SEEN_TTL_DAYS"] ?? "") ?? 90

    @Flag(help: "Strict duplicate detection: a hit in the seen bank blocks, not only counts (environment: PARLEY_DCD_STRICT=1).")
    var dcdStrict = false

    /// The flag or its environment variable (a flag's default must be `false`, so the variable is read here).
    var strictSeen: Bool { dcdStrict || Self.environment["PARLEY_DCD_STRICT"] == "1" }

    @Option(help: "Wrong PINs after which a PIN backup is deleted (environment: PARLEY_BACKUP_MAX_FAILURES).")
    var backupMaxFailures = Int(environment["PARLEY_BACKUP_MAX_FAILURES"] ?? "") ?? 10

    @Option(
        help:
            "The PIN backups' OPRF key file, created on first start; processes sharing one PostgreSQL database must share it (environment: PARLEY_BACKUP_KEY_FILE; default: backup-oprf.key in the data directory)."
    )
    var backupKeyFile: String?

    private var resolvedBackupKeyFile: String? { backupKeyFile ?? Self.environment["PARLEY_BACKUP_KEY_FILE"] }

    @Option(
        help:
            "The seed of the server's zkgroup keys (group auth credentials), created on first start; processes sharing one PostgreSQL database must share it (environment: PARLEY_ZKGROUP_KEY_FILE; default: zkgroup.key in the data directory)."
    )
    var zkgroupKeyFile: String?

    private var resolvedZKGroupKeyFile: String? { zkgroupKeyFile ?? Self.environment["PARLEY_ZKGROUP_KEY_FILE"] }

    @OptionGroup(title: "Push notifications")
    var push: PushOptions

    @Option(help: "trace, debug, info, notice, warning, error or critical (environment: PARLEY_LOG_LEVEL).")
    var logLevel = environment["PARLEY_LOG_LEVEL"] ?? "info"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown log level \(logLevel)") }
        guard SQLiteDurability(rawValue: sqliteDurability) != nil else { throw ValidationError("durability is process or power") }
        guard maxConnections > 0, maxConnectionsPerAddress > 0, requestHeadTimeoutSeconds > 0, readTimeoutSeconds > 0 else {
            throw ValidationError("connection limits and timeouts must be positive")
        }
        guard ["on", "off"].contains(groupCommit) else { throw ValidationError("--group-commit is on or off") }
        guard RegistrationMode(rawValue: registration) != nil else { throw ValidationError("--registration is open, token or closed") }
        guard PlainAccountNames(rawValue: plainAccountNames) != nil else {
            throw ValidationError("--plain-account-names is allowed or retired")
        }
        if registration == "token", resolvedOperatorToken == nil {
            throw ValidationError("--registration token needs --operator-token (invites are made through the operator API)")
        }
        if let token = resolvedOperatorToken, token.utf8.count < 16 {
            throw ValidationError("the operator token must be at least 16 characters")
        }
        guard messageTTLDays > 0, attachmentMaxBytes > 0, rateLimitScale > 0, keepAliveSeconds > 0, dcdSeenTTLDays > 0 else {
            throw ValidationError("TTL, attachment size, rate-limit scale and keep-alive must be positive")
        }
        guard messageTTLDays <= Self.maximumTTLDays, dcdSeenTTLDays <= Self.maximumTTLDays else {
            throw ValidationError("--message-ttl-days and --dcd-seen-ttl-days are at most \(Self.maximumTTLDays) (ten years)")
        }
        guard
            ((grpcTLSCertificate ?? Self.environment["PARLEY_GRPC_TLS_CERTIFICATE"]) == nil)
                == ((grpcTLSKey ?? Self.environment["PARLEY_GRPC_TLS_KEY"]) == nil)
        else {
            throw ValidationError("--grpc-tls-certificate and --grpc-tls-key go together")
        }
        if let port = resolvedGRPCPort, !(0...65535).contains(port) { throw ValidationError("--grpc-port must be 0…65535") }
        guard (1...1000).contains(backupMaxFailures) else { throw ValidationError("--backup-max-failures must be 1…1000") }
    }

    func run() async throws {
        Self.raiseOpenFileLimit()
        var logger = Logger(label: "parley-server")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        var limits = ServerLimits()
        limits.messageLifetimeMilliseconds = UInt64(messageTTLDays) * 24 * 60 * 60 * 1000
        limits.attachmentBytes = attachmentMaxBytes
        limits.rateLimits = limits.rateLimits.scaled(by: rateLimitScale)
        limits.connections.maximumConnections = maxConnections
        limits.connections.maximumConnectionsPerAddress = maxConnectionsPerAddress
        limits.connections.trustedProxies = Set(trustedProxies)
        limits.connections.requestHeadTimeout = .seconds(requestHeadTimeoutSeconds)
        limits.connections.readTimeout = .seconds(readTimeoutSeconds)
        let attachments = try AttachmentStore(directory: URL(fileURLWithPath: dataDirectory).appendingPathComponent("attachments"))
        let data = URL(fileURLWithPath: dataDirectory)
        var contentDetection = ContentDetectionSettings(
            importDirectory: data.appendingPathComponent("dcd-imports"),
            decoyKey: try SecretKeyFile.load(at: data.appendingPathComponent("dcd-decoy.key")), operatorToken: resolvedOperatorToken)
        contentDetection.strictSeen = strictSeen
        contentDetection.seenLifetimeMilliseconds = UInt64(dcdSeenTTLDays) * 24 * 60 * 60 * 1000
        // Beside the database, never in it: a copy of the database alone cannot check a PIN guess.
        let backupKey = resolvedBackupKeyFile.map { URL(fileURLWithPath: $0) } ?? data.appendingPathComponent("backup-oprf.key")
        var backup = BackupSettings(oprfKey: try SecretKeyFile.load(at: backupKey))
        backup.maximumFailures = backupMaxFailures

        let zkgroupKey = resolvedZKGroupKeyFile.map { URL(fileURLWithPath: $0) } ?? data.appendingPathComponent("zkgroup.key")
        let groupCredentials = GroupCredentialIssuer(seed: try SecretKeyFile.load(at: zkgroupKey))
        let sealedSender = try SealedSenderKeyFiles.load(in: data)
        let pushSettings = try push.settings(dataDirectory: data)
        logger.info("push providers: \(pushSettings.providers.joined(separator: ", "))")
        if pushSettings.vapid.subject == VAPIDSigner.defaultSubject {
            logger.warning(
                "Web Push requests name \(VAPIDSigner.defaultSubject) as their contact; some push services refuse it: set --vapid-subject")
        }
        let makeDependencies = { (store: any ServerStore) in
            ServerDependencies(
                store: store, attachments: attachments, hasher: CredentialHasher(), limits: limits,
                contentDetection: contentDetection, backup: backup, groupCommit: groupCommit == "on",
                registration: RegistrationMode(rawValue: registration) ?? .open,
                plainAccountNames: PlainAccountNames(rawValue: plainAccountNames) ?? .allowed, sealedSender: sealedSender,
                push: pushSettings, groupCredentials: groupCredentials, logger: logger)
        }
        guard let databaseURL = databaseURL ?? Self.environment["PARLEY_DATABASE_URL"] else {
            // One server per SQLite data directory.
            let lock = try DataDirectoryLock(directory: dataDirectory)
            let store = try SQLiteStore(
                path: (dataDirectory as NSString).appendingPathComponent("server.sqlite"),
                durability: SQLiteDurability(rawValue: sqliteDurability) ?? .processCrash)
            let dependencies = makeDependencies(store)
            let maintenance = MaintenanceService(dependencies: dependencies, logger: logger)
            try await serve(dependencies, services: [maintenance], backend: "SQLite", logger: logger)
            _ = consume lock
            return
        }
        let store = try PostgresStore(url: databaseURL, logger: logger)
        // The pool runs beside the server and stops after it, so in-flight requests finish their queries.
        let pool = Task { try await store.run() }
        defer { pool.cancel() }
        try await store.migrate()
        let dependencies = makeDependencies(store)
        let maintenance = MaintenanceService(dependencies: dependencies, logger: logger) { now in
            try await store.preparePartitions(now: now)
        }
        try await serve(
            dependencies,
            services: [
                maintenance, MailboxChangeListener(store: store, hub: dependencies.hub),
                AccountChangeListener(store: store, hub: dependencies.hub),
            ],
            backend: "PostgreSQL", logger: logger)
    }

    /// Every socket is a file descriptor: lift the soft limit to the hard one so thousands of clients fit.
    private static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    private func serve(_ dependencies: ServerDependencies, services: [any Service], backend: String, logger: Logger) async throws {
        var services = services
        if let grpcPort = resolvedGRPCPort {
            let tls = grpcTLS
            services.append(
                GRPCKeyServer(dependencies, host: host, port: grpcPort, tls: tls, logger: logger) { [host] port in
                    FileHandle.standardOutput.write(
                        Data("parley-server gRPC listening on \(host):\(port)\(tls == nil ? "" : " (TLS)")\n".utf8))
                })
        }
        let app = ParleyServerApplication.make(
            dependencies, host: host, port: port, keepAliveInterval: .seconds(keepAliveSeconds), services: services, logger: logger
        ) { [host, dataDirectory] port in
            logger.notice(
                "parley-server \(ParleyVersion.current) started",
                metadata: [
                    "address": "\(host):\(port)", "storage": "\(backend)", "data-directory": "\(dataDirectory)",
                    "push": "\(dependencies.push.settings.providers.joined(separator: ","))",
                ])
            // One line on stdout that scripts (and the integration tests) wait for.
            FileHandle.standardOutput.write(Data("parley-server listening on \(host):\(port)\n".utf8))
        }
        try await app.runService()
        logger.notice("parley-server stopped")
    }
}
