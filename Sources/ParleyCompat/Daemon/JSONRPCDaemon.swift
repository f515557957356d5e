import Foundation
import ParleyKit
import ParleyLocalService

/// signal-cli's daemon over Parley (`parley daemon`): JSON-RPC 2.0 on standard input and output, a Unix socket, TCP or
/// HTTP, serving one account or several; incoming messages reach every connected client as `receive` notifications.
public struct JSONRPCDaemon: Sendable {
    /// Where requests arrive.
    private let listener: SocketListener?
    private let tcpEndpoint: HostAndPort?
    private let httpEndpoint: HostAndPort?

    /// A daemon on a Unix socket at `socket`, on TCP at `tcp` (`HOST:PORT`), on HTTP at `http`, or — none given — on
    /// standard input and output. The socket is made (0600) here, before any account is opened.
    /// - Throws: ``HostAndPortError`` for an address that does not parse; the socket's error when it cannot be made.
    public init(socket: String?, tcp: String?, http: String?) throws {
        tcpEndpoint = try tcp.map(HostAndPort.init(parsing:))
        httpEndpoint = try http.map(HostAndPort.init(parsing:))
        listener = try socket.map(SocketListener.init(path:)) ?? tcpEndpoint.map { try SocketListener(tcp: $0) }
    }

    /// Stops listening and removes the socket file.
    public func close() { listener?.close() }

    /// Serves `accounts` (with `allAccounts`, signal-cli's multi-account mode: each request names one) until standard
    /// input ends, or — on a socket or HTTP — until the process is stopped. SIGTERM and SIGINT remove the socket file.
    public func run(serving accounts: [ServedAccount], allAccounts: Bool) async throws {
        // SIGTERM and SIGINT remove the socket file before exiting (defers do not run on a signal).
        let signalSources = listener.map { listener in
            [SIGTERM, SIGINT].map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number)
                source.setEventHandler {
                    listener.close()
                    Foundation.exit(0)
                }
                source.resume()
                return source
            }
        }
        defer { for source in signalSources ?? [] { source.cancel() } }
        try await DaemonAccounts.serve(accounts, allAccounts: allAccounts) { accounts, peers in
            if let httpEndpoint {
                let session = DaemonSession(accounts: accounts, transport: .http) { _ in }
                try await DaemonHTTPServer(endpoint: httpEndpoint, session: session, peers: peers).run()
            } else if let listener {
                FileHandle.standardError.write(Data("parley daemon listening on \(listener.path)\n".utf8))
                if let tcpEndpoint, !tcpEndpoint.isLoopback {
                    FileHandle.standardError.write(
                        Data(
                            "parley daemon: warning: \(listener.path) is not a loopback address; anyone who can reach it acts as this account\n"
                                .utf8))
                }
                await withDiscardingTaskGroup { group in
                    for await connection in listener.connections() {
                        group.addTask { await Self.serve(connection, accounts: accounts, peers: peers) }
                    }
                }
            } else {
                await Self.serve(LineConnection(input: 0, output: 1, ownsDescriptors: false), accounts: accounts, peers: peers)
            }
        }
    }

    /// Answers one peer's requests until its input ends, it sends a line too long, or it turns out to be a web browser.
    private static func serve(_ connection: LineConnection, accounts: DaemonAccounts, peers: DaemonPeers) async {
        let session = DaemonSession(
            accounts: accounts, transport: .lines, write: { connection.write($0) }, pace: { await connection.paced() })
        let id = peers.add { session.notify($0) }
        reading: for await incoming in connection.lines() {
            switch incoming {
            case .tooLong:
                session.refuseLine(longerThan: LineConnection.maximumLineBytes)
                break reading
            case .line(let line):
                // A web page can make a browser send an HTTP request to a local TCP port, its body holding JSON-RPC
                // lines: the request line ends the connection before any of them is read.
                if Self.isHTTPRequestLine(line) { break reading }
                guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
                await session.handle(line: line)
            }
        }
        peers.remove(id)
        await connection.close()
    }

    /// Whether `line` is an HTTP request line (`METHOD TARGET HTTP/VERSION`), which no JSON-RPC line is.
    static func isHTTPRequestLine(_ line: String) -> Bool {
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        return parts.count == 3 && !parts[0].isEmpty && parts[0].allSatisfy { $0.isASCII && $0.isUppercase } && parts[2].hasPrefix("HTTP/")
    }
}
