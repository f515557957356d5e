import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Runs one of the local HTTP doors (`parley daemon --http`, `parley rest-api`) on `endpoint`: Hummingbird's logs kept
/// to warnings, and one start-up line on stderr — `NAME listening on http://HOST:PORT`, with the port bound when 0 was
/// asked for — which scripts and tests wait for.
public enum LocalHTTPService {
    /// How long a connection may send nothing — between requests, or in the middle of one — before it is closed (a
    /// response still being written, such as an event stream, keeps it open).
    public static let idleTimeout: TimeAmount = .seconds(60)

    /// Serves `router` (named `name` in logs and the start-up line) on `endpoint` until the task is cancelled or the
    /// process stops; `onRunning` gets the bound port once the server listens.
    public static func run<Context: RequestContext>(
        _ name: String, router: Router<Context>,
        server: HTTPServerBuilder = .http1(configuration: .init(idleTimeout: idleTimeout)), endpoint: HostAndPort,
        onRunning: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws
    where Context.Source == ApplicationRequestContextSource {
        var logger = Logger(label: name)
        logger.logLevel = .warning
        let app = Application(
            router: router, server: server,
            configuration: .init(address: .hostname(endpoint.host, port: endpoint.port), serverName: name),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? endpoint.port
                FileHandle.standardError.write(
                    Data("\(name.replacingOccurrences(of: "-", with: " ")) listening on http://\(endpoint.host):\(port)\n".utf8))
                onRunning(port)
            }, logger: logger)
        try await app.runService()
    }
}
