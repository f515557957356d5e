import ArgumentParser
import Foundation
import ParleyKit

struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Serve JSON-RPC 2.0 on stdin/stdout (one JSON object per line); incoming messages arrive as `receive` notifications.",
        discussion: """
            Methods: send {recipient, text, attachments?, replyTo?}, receive, conversations, history {recipient, before?, limit?},
            safetyNumber {recipient}, trust {recipient}, devices. Example:
              {"jsonrpc":"2.0","id":1,"method":"send","params":{"recipient":"bob","text":"hi"}}
            """)

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await AccountContext.with(options) { client in
            let output = StandardOutput()
            let session = DaemonSession(client: client) { output.write($0) }
            let listener = Task {
                try await client.listen { outcome in
                    guard case .stored(let id) = outcome,
                          let message = try? client.database.read({ db in try MessageLookup.message(id, db) }) else { return }
                    session.notify(message)
                }
            }
            defer { listener.cancel() }
            for try await line in StandardInputLines() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                await session.handle(line: line)
            }
        }
    }
}

/// Serialized writes to stdout (responses and notifications come from different tasks).
final class StandardOutput: Sendable {
    private let lock = NSLock()
    func write(_ data: Data) { lock.withLock { FileHandle.standardOutput.write(data) } }
}

/// Lines of standard input, read on a thread of their own.
struct StandardInputLines: AsyncSequence {
    typealias Element = String

    struct AsyncIterator: AsyncIteratorProtocol {
        mutating func next() async throws -> String? {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: readLine(strippingNewline: true)) }
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
}
