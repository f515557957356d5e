import GRPCCore
import GRPCNIOTransportHTTP2Posix
import Logging
import NIOCore
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

    /// How long one connection may stay open (then it is asked to go away and given a minute to finish its calls): a
    /// client that keeps a call open by trickling bytes cannot hold a connection for ever.
    public static let maximumConnectionAge: Duration = .seconds(30 * 60)

    private let server: GRPCServer<HTTP2ServerTransport.Posix>
    private let onListening: @Sendable (Int) async -> Void

    /// A listener on `host:port` (0 picks a free port; `onListening` learns the port once it is bound).
    public init(
        _ dependencies: ServerDependencies, host: String, port: Int, tls: TLSFiles? = nil,
        logger: Logger = Logger(label: "parley-server"), onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) {
        let d = dependencies
        let service = SignalE2EEKeyService(
            keys: d.keyDirectory, devices: d.deviceDirectory, authenticator: d.authenticator, metrics: d.metrics, logger: logger)
        let security: HTTP2ServerTransport.Posix.TransportSecurity =
            tls.map {
                .tls(
                    certificateChain: [.file(path: $0.certificateChain, format: .pem)], privateKey: .file(path: $0.privateKey, format: .pem)
                )
            } ?? .plaintext
        // REST's connection limits, counted for this listener: a cap in all and per client address, and a read timeout.
        let connections = ConnectionGuard(limits: d.limits.connections)
        let transport = HTTP2ServerTransport.Posix(
            address: host.contains(":") ? .ipv6(host: host, port: port) : .ipv4(host: host == "localhost" ? "127.0.0.1" : host, port: port),
            transportSecurity: security,
            config: .defaults { config in
                // Messages, idle connections, connection lifetimes and stream fan-out are bounded. A connection with no
                // call open is closed gracefully (GOAWAY) before the read timeout would cut it.
                config.rpc.maxRequestPayloadSize = max(Self.transportPayloadLimit, d.limits.keyUploadBytes)
                config.connection.maxIdleTime = min(.seconds(300), d.limits.connections.readTimeout * 2 / 3)
                config.connection.maxAge = Self.maximumConnectionAge
                config.connection.maxGraceTime = .seconds(60)
                config.http2.maxConcurrentStreams = 100
                config.channelDebuggingCallbacks.onAcceptTCPConnection = { channel in Self.guardConnection(channel, connections) }
            })
        self.server = GRPCServer(transport: transport, services: [service])
        self.onListening = onListening
    }

    /// Admits an accepted connection within `connections`' limits, closing it when over them (HTTP/2 has no way to
    /// answer before the client's preface, so a refused client sees the connection close, perhaps after the server's
    /// preface, which the transport may already have flushed), and closes an admitted one that
    /// sends nothing for the read timeout (raw bytes: a TLS connection stalled in its handshake as well).
    private static func guardConnection(_ channel: any Channel, _ connections: ConnectionGuard) -> EventLoopFuture<Void> {
        guard connections.admit(channel) else {
            channel.close(promise: nil)
            return channel.eventLoop.makeSucceededVoidFuture()
        }
        do {
            try channel.pipeline.syncOperations.addHandlers(
                [IdleStateHandler(readTimeout: TimeAmount(connections.limits.readTimeout)), ReadTimeoutCloser()], position: .first)
            return channel.eventLoop.makeSucceededVoidFuture()
        } catch {
            // Nobody closes a channel whose set-up failed: closing it here releases its place too.
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(error)
        }
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
