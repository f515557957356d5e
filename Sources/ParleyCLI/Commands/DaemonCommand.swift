import ArgumentParser
import Foundation
import ParleyKit

struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Serve JSON-RPC 2.0 (one JSON object per line) on stdin/stdout or on a Unix socket; incoming messages arrive as `receive` notifications.",
        discussion: """
            Methods: send {recipient, text, attachments?, replyTo?}, receive, conversations, history {recipient, before?, limit?},
            safetyNumber {recipient}, trust {recipient}, devices. Example:
              {"jsonrpc":"2.0","id":1,"method":"send","params":{"recipient":"bob","text":"hi"}}
            With --socket PATH, any number of local clients may connect (the socket is 0600); each gets its responses and
            every `receive` notification.
            """)

    @OptionGroup var options: GlobalOptions
    @Option(help: "Serve on a Unix domain socket at this path instead of stdin/stdout.") var socket: String?

    func run() async throws {
        let listener = try socket.map(UnixSocketListener.init(path:))
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
        defer { signalSources?.forEach { $0.cancel() } }
        try await AccountContext.with(options) { client in
            let peers = DaemonPeers()
            let receiving = Task {
                try await client.listen { outcome in
                    guard case .stored(let id) = outcome,
                          let message = try? client.message(id: id) else { return }
                    peers.notifyAll(message)
                }
            }
            defer { receiving.cancel() }
            if let listener {
                FileHandle.standardError.write(Data("parley daemon listening on \(listener.path)\n".utf8))
                await withDiscardingTaskGroup { group in
                    for await connection in listener.connections() {
                        group.addTask { await Self.serve(connection, client: client, peers: peers) }
                    }
                }
            } else {
                await Self.serve(LineConnection(input: 0, output: 1, ownsDescriptors: false), client: client, peers: peers)
            }
        }
    }

    /// Answers one peer's requests until its input ends.
    private static func serve(_ connection: LineConnection, client: ParleyClient, peers: DaemonPeers) async {
        let session = DaemonSession(client: client) { connection.write($0) }
        let id = peers.add(session)
        for await line in connection.lines() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            await session.handle(line: line)
        }
        peers.remove(id)
        connection.close()
    }
}

/// The daemon's connected peers, which all get `receive` notifications.
final class DaemonPeers: Sendable {
    private let state = NSLock()
    nonisolated(unsafe) private var sessions: [Int: DaemonSession] = [:]
    nonisolated(unsafe) private var nextId = 0

    /// Adds a peer; returns its handle for ``remove(_:)``.
    func add(_ session: DaemonSession) -> Int {
        state.withLock {
            nextId += 1
            sessions[nextId] = session
            return nextId
        }
    }

    /// Forgets a peer that went away.
    func remove(_ id: Int) {
        _ = state.withLock { sessions.removeValue(forKey: id) }
    }

    /// Tells every peer about an incoming message.
    func notifyAll(_ message: StoredMessage) {
        for session in state.withLock({ Array(sessions.values) }) { session.notify(message) }
    }
}
