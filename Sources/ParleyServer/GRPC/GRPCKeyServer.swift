import GRPCCore
import GRPCNIOTransportHTTP2Posix
import Logging
import ServiceLifecycle

/// The gRPC listener (HTTP/2 over TCP, TLS when given a certificate and key) serving ``SignalE2EEKeyService`` from
/// the same dependencies as the REST routes. A ServiceLifecycle service: it stops accepting calls on graceful
/// shutdown and lets running ones finish.
public struct GRPCKeyServer: Service {
    /// A PEM certificate chain and private key for TLS.
    public struct TLSFiles: Sendable {
        /// The certificate chain file (PEM).
        public var certificateChain: String
        /// The private key file (PEM).
        public var privateKey: String

        /// Files to serve TLS with.
        public init(certificateChain: String, privateKey: String) {
            self.certificateChain = certificateChain
            self.privateKey = privateKey
        }
    }

    /// The largest message the transport reads at all (4 MiB): above it, the stream is reset unanswered. Below it, the
    /// service applies REST's limits and answers with a status.
    public static let transportPayloadLimit = 4 * 1024 * 1024

    private let server: GRPCServer<HTTP2ServerTransport.Posix>
    private let onListening: @Sendable (Int) async -> Void

    /// A listener on `host:port` (0 picks a free port; `onListening` learns the port once it is bound).
    public init(_ dependencies: ServerDependencies, host: String, port: Int, tls: TLSFiles? = nil,
                logger: Logger = Logger(label: "parley-server"), onListening: @escaping @Sendable (Int) async -> Void = { _ in }) {
        let d = dependencies
        let service = SignalE2EEKeyService(
            keys: d.keyDirectory, devices: d.deviceDirectory, authenticator: d.authenticator, metrics: d.metrics, logger: logger)
        let security: HTTP2ServerTransport.Posix.TransportSecurity = tls.map {
            .tls(certificateChain: [.file(path: $0.certificateChain, format: .pem)], privateKey: .file(path: $0.privateKey, format: .pem))
        } ?? .plaintext
        let transport = HTTP2ServerTransport.Posix(
            address: host.contains(":") ? .ipv6(host: host, port: port) : .ipv4(host: host == "localhost" ? "127.0.0.1" : host, port: port),
            transportSecurity: security,
            config: .defaults { config in
                // Messages, idle connections and stream fan-out are bounded.
                config.rpc.maxRequestPayloadSize = max(Self.transportPayloadLimit, d.limits.keyUploadBytes)
                config.connection.maxIdleTime = .seconds(300)
                config.http2.maxConcurrentStreams = 100
            })
        self.server = GRPCServer(transport: transport, services: [service])
        self.onListening = onListening
    }

    /// Serves until graceful shutdown.
    public func run() async throws {
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { try await server.serve() }
                let address = try await server.listeningAddress
                if let port = address?.ipv4?.port ?? address?.ipv6?.port { await onListening(port) }
            }
        } onGracefulShutdown: {
            server.beginGracefulShutdown()
        }
    }
}
