import Foundation
import HTTPTypes
import Hummingbird
import ParleyKit
import ParleyLocalService
import Synchronization

/// `parley web`: a messenger in the browser, served by a local process on this machine's encrypted ParleyKit database.
///
/// The browser is only the screen: keys and messages stay in this process, which talks to the Parley server exactly as
/// the command line does, and serves its page to the local browser alone — loopback by default, signed in once through
/// the one-time address this prints (``WebSession``), every request checked for its host, origin and session
/// (``WebGuard``), with a strict Content-Security-Policy and every asset embedded in the binary (``WebAssets``).
/// Every route is one ParleyClient verb or read (``WebAPI``); live updates travel as server-sent events fed by
/// ParleyClient's event stream (``WebEvents``).
public struct WebServer: Sendable {
    let endpoint: HostAndPort

    /// A server for `listen` (`HOST:PORT`; port 0 picks one).
    /// - Throws: ``WebServerError/notLoopback(_:)`` for an address other than loopback without `allowRemote`;
    ///   ``HostAndPortError`` for one that does not parse.
    public init(listen: String, allowRemote: Bool) throws {
        endpoint = try HostAndPort(parsing: listen)
        guard endpoint.isLoopback || allowRemote else { throw WebServerError.notLoopback(listen) }
    }

    /// Whether the address is loopback (when not, `parley web` warns that anyone who can reach it and holds the
    /// one-time address acts as this account).
    public var isLoopback: Bool { endpoint.isLoopback }

    /// Serves `client` until the process is stopped. `announce` gets the address to open — with its one-time token — as
    /// soon as the server listens.
    public func run(client: ParleyClient, announce: @escaping @Sendable (String) -> Void) async throws {
        let session = WebSession()
        let port = Mutex<Int?>(nil)
        let receiver = WebReceiver(client: client)
        await receiver.start()
        let hosts: Set<String> = [endpoint.host.lowercased(), "localhost", "127.0.0.1", "::1"]
        let guardian = WebGuard(hosts: hosts, port: { port.withLock { $0 } }, session: session)
        let router = Router(context: LocalRequestContext.self)
        router.add(middleware: WebMiddleware(guard: guardian))
        WebAssets.addRoutes(to: router)
        WebAPI(client: client, receiver: receiver, uploads: WebUploads(client: client)).addRoutes(to: router)
        WebEvents(client: client, receiver: receiver).addRoutes(to: router)
        defer { Task { await receiver.stop() } }
        let host = endpoint.host.contains(":") ? "[\(endpoint.host)]" : endpoint.host
        try await LocalHTTPService.run("parley-web", router: router, endpoint: endpoint) { bound in
            port.withLock { $0 = bound }
            announce("http://\(host):\(bound)/?token=\(session.oneTimeToken ?? "")")
        }
    }
}

/// Why `parley web` would not start.
public enum WebServerError: Error, CustomStringConvertible {
    /// An address other than loopback, without `--allow-remote`.
    case notLoopback(String)

    public var description: String {
        switch self {
        case .notLoopback(let address):
            "\(address) is not a loopback address: anyone who reaches it could use this account once signed in; pass --allow-remote to serve it anyway"
        }
    }
}
