import ArgumentParser
import Foundation
import ParleyKit
import Synchronization

struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract:
            "Serve JSON-RPC 2.0 — signal-cli's daemon protocol — on stdin/stdout, a Unix socket or HTTP; incoming messages arrive as `receive` notifications.",
        discussion: """
            signal-cli's methods (send, sendReaction, sendReceipt, sendTyping, remoteDelete, listGroups, updateGroup, quitGroup,
            getUserStatus, listContacts, listIdentities, trust, listDevices, removeDevice, version) and Parley's own: send
            {recipient, text, attachments?, replyTo?}, receive, conversations, history {recipient, before?, limit?},
            safetyNumber {recipient}, trust {recipient}, devices. A recipient is a username, an account id, u:USERNAME, or
            +DIGITS for an account whose username is those digits. Example:
              {"jsonrpc":"2.0","id":1,"method":"send","params":{"recipient":["+15550000002"],"message":"hi"}}
            With --socket PATH, any number of local clients may connect (the socket is 0600); each gets its responses and
            every `receive` notification. With --http HOST:PORT (loopback unless you say otherwise; anyone who can reach it
            acts as this account): POST /api/v1/rpc, GET /api/v1/events (server-sent events), GET /api/v1/check.
            """)

    @OptionGroup var options: GlobalOptions
    @Option(help: "Serve on a Unix domain socket at this path instead of stdin/stdout.") var socket: String?
    @Option(help: "Serve newline-delimited JSON-RPC on TCP at HOST:PORT (signal-cli's --tcp; port 0 picks one, printed on stderr).")
    var tcp: String?
    @Flag(
        help:
            "Serve every registered account under --home (signal-cli's multi-account mode): each request names one with its `account` parameter."
    )
    var allAccounts = false
    @Option(help: "Serve signal-cli's HTTP transport on HOST:PORT (port 0 picks one; the address is printed on stderr).")
    var http: String?

    func run() async throws {
        let listener = try socket.map(SocketListener.init(path:)) ?? tcp.map { try SocketListener(tcp: try HostAndPort(parsing: $0)) }
        defer { listener?.close() }
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
        let endpoint = try http.map(HostAndPort.init(parsing:))
        try await DaemonAccounts.serve(options, allAccounts: allAccounts) { accounts, peers in
            if let endpoint {
                let session = DaemonSession(accounts: accounts, transport: .http) { _ in }
                try await DaemonHTTPServer(endpoint: endpoint, session: session, peers: peers).run()
            } else if let listener {
                FileHandle.standardError.write(Data("parley daemon listening on \(listener.path)\n".utf8))
                if let tcp, let endpoint = try? HostAndPort(parsing: tcp), !endpoint.isLoopback {
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

/// The daemon's connected clients, which all hear of incoming messages: line sessions and event streams.
final class DaemonPeers: Sendable {
    private let listeners = Mutex<(next: Int, all: [Int: @Sendable (DaemonEvent) -> Void])>((0, [:]))

    /// Adds a listener; returns its handle for ``remove(_:)``.
    func add(_ listener: @escaping @Sendable (DaemonEvent) -> Void) -> Int {
        listeners.withLock { state in
            state.next += 1
            state.all[state.next] = listener
            return state.next
        }
    }

    /// Forgets a listener that went away.
    func remove(_ id: Int) {
        _ = listeners.withLock { $0.all.removeValue(forKey: id) }
    }

    /// Tells every listener about an incoming message.
    func notifyAll(_ event: DaemonEvent) {
        for listener in listeners.withLock({ Array($0.all.values) }) { listener(event) }
    }
}
