import Foundation
import ParleyTestSupport
import Testing

/// The `parley` command against a real `parley-server` process: registration, sending, receiving, history and the
/// JSON-RPC daemon, each account in its own encrypted database under a temporary PARLEY_HOME.
@Suite struct CommandLineClientTests {
    typealias Run = ProcessRun

    final class Parley: @unchecked Sendable {
        let home: String
        let binary: URL

        init() throws {
            guard let bin = ProcessInfo.processInfo.environment["PARLEY_BIN_DIR"] else { throw ServerProcessError.notConfigured }
            binary = URL(fileURLWithPath: bin).appendingPathComponent("parley")
            home = NSTemporaryDirectory() + "parley-cli-\(UUID())"
        }

        func process(_ arguments: [String]) -> ChildProcess {
            let process = ChildProcess()
            process.executableURL = binary
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(["PARLEY_HOME": home]) { $1 }
            return process
        }

        func run(_ arguments: String...) async throws -> Run { try await ProcessRun.run(process(arguments)) }

        deinit { try? FileManager.default.removeItem(atPath: home) }
    }

    @Test func aUsernameTakenAtRegistrationFindsTheAccountByNameAndByLink() async throws {
        let directory = NSTemporaryDirectory() + "parley-cli-server-\(UUID())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess(arguments: ["--data-directory", directory])
        defer { server.stop() }
        let parley = try Parley()
        struct Registered: Decodable { let accountId: String, publicUsername: String? }
        let registered = try await parley.run(
            "register", "--nickname", "Stargazer", "--server", server.baseURL, "--account", "dana", "--json")
        let dana = try JSONDecoder().decode(Registered.self, from: Data(registered.stdout.utf8))
        let username = try #require(dana.publicUsername)
        #expect(username.hasPrefix("Stargazer."))
        #expect(try await parley.run("register", "eli", "--server", server.baseURL, "--account", "eli").status == 0)
        #expect(try await parley.run("username", "--account", "dana").stdout.contains(username))

        // Eli writes to the username, then finds the same account by the link Dana prints.
        #expect(try await parley.run("send", username.lowercased(), "hello by username", "--account", "eli").status == 0)
        #expect(try await parley.run("receive", "--account", "dana").status == 0)
        #expect(try await parley.run("--account", "dana", "--json", "history", "eli").stdout.contains("hello by username"))
        let link = try await parley.run("username", "link", "--account", "dana").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(link.hasPrefix("parley://username/"))
        let found = try await parley.run("username", "lookup", link, "--account", "eli")
        #expect(found.status == 0 && found.stdout.contains(dana.accountId) && found.stdout.contains(username), "\(found.stdout)")
        // A chosen number, a refused nickname with libsignal's reason, and giving the username up.
        let chosen = try await parley.run("username", "set", "stargazer", "--discriminator", "77", "--account", "dana")
        #expect(chosen.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "stargazer.77")
        let refused = try await parley.run("username", "set", "9lives", "--account", "dana")
        #expect(refused.status != 0 && refused.stderr.contains("digit"), "\(refused.stderr)")
        #expect(try await parley.run("username", "delete", "--account", "dana").status == 0)
        let gone = try await parley.run("username", "lookup", "stargazer.77", "--account", "eli")
        #expect(gone.status != 0 && gone.stderr.contains("no account has the username"), "\(gone.stderr)")
    }

    @Test func theCommandLineClientTalksEndToEndAndServesJSONRPC() async throws {
        let directory = NSTemporaryDirectory() + "parley-cli-server-\(UUID())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess(arguments: ["--data-directory", directory])
        defer { server.stop() }
        let parley = try Parley()
        #expect(try await parley.run("register", "alice", "--server", server.baseURL, "--account", "alice").status == 0)
        #expect(
            try await parley.run("register", "bob", "--server", server.baseURL, "--account", "bob", "--json").stdout.contains("accountId"))
        #expect(try await parley.run("send", "bob", "hello from the command line", "--account", "alice").status == 0)
        let received = try await parley.run("receive", "--account", "bob", "--json")
        #expect(received.status == 0 && received.stdout.contains("\"stored\":1"))
        let history = try await parley.run("--account", "bob", "--json", "history", "alice")  // options before the command too
        #expect(history.stdout.contains("hello from the command line"))
        let unknown = try await parley.run("send", "nobody", "x", "--account", "alice")
        // An unknown recipient is not an unreachable server: 9, not 4 (a retry changes nothing).
        #expect(unknown.status == 9 && unknown.stderr.contains("no account nobody"), "\(unknown)")
        let missing = try await parley.run("history", "alice", "--account", "carol")  // never registered: nothing is made
        #expect(missing.status == 3 && missing.stderr.contains("no account 'carol'"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: parley.home + "/accounts/carol"))

        // The daemon: a request on stdin, its response on stdout, and a notification when a message arrives.
        let daemon = parley.process(["daemon", "--account", "bob"])
        let input = Pipe()
        let output = Pipe()
        daemon.standardInput = input
        daemon.standardOutput = output
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer { if daemon.isRunning { daemon.terminate() } }
        let lines = LineReader(output.fileHandleForReading)
        input.fileHandleForWriting.write(Data(#"{"jsonrpc":"2.0","id":1,"method":"conversations"}"#.utf8 + [10]))
        input.fileHandleForWriting.write(Data(#"{"jsonrpc":"2.0","id":2,"method":"nope"}"#.utf8 + [10]))
        input.fileHandleForWriting.write(Data("not json\n".utf8))
        let first = try #require(await lines.next(timeout: 20))
        #expect(first.contains("\"id\":1") && first.contains("hello from the command line"))
        #expect(try #require(await lines.next(timeout: 20)).contains("-32601"))
        #expect(try #require(await lines.next(timeout: 20)).contains("-32700"))
        try await Task.sleep(for: .seconds(1))  // the daemon's socket is connected
        #expect(try await parley.run("send", "bob", "pushed to the daemon", "--account", "alice").status == 0)
        let notification = try #require(await lines.next(timeout: 20))
        #expect(notification.contains("\"method\":\"receive\"") && notification.contains("pushed to the daemon"))
        try input.fileHandleForWriting.close()
        await daemon.exited()

        // `--mention NAME` takes the whole `@NAME` (not the start of `@bobby`), in any case; a text without it is refused.
        #expect(try await parley.run("send", "bob", "@bobby, ask 👋 @Bob", "--mention", "bob", "--account", "alice").status == 0)
        let noTag = try await parley.run("send", "bob", "hi", "--mention", "bob", "--account", "alice")
        #expect(noTag.status != 0 && noTag.stderr.contains("no @bob"), "\(noTag.stderr)")
        #expect(try await parley.run("receive", "--account", "bob").status == 0)
        let mentioned = try await parley.run("history", "alice", "--account", "bob", "--json").stdout
        #expect(mentioned.contains(#""length":4,"start":15"#), "\(mentioned)")

        // Text from standard input with `-`; mistakes said in words, with nothing stored.
        let piped = parley.process(["send", "bob", "-", "--account", "alice"])
        let stdin = Pipe()
        piped.standardInput = stdin
        piped.standardOutput = FileHandle.nullDevice
        try piped.run()
        stdin.fileHandleForWriting.write(Data("a line from standard input\n".utf8))
        try stdin.fileHandleForWriting.close()
        await piped.exited()
        #expect(piped.terminationStatus == 0)
        let missingMessage = try await parley.run("download", "99999", "--account", "bob")
        #expect(missingMessage.status == 1 && missingMessage.stderr.contains("there is no message 99999"), "\(missingMessage.stderr)")
        let folder = try await parley.run("send", "bob", "--attach", NSTemporaryDirectory(), "--account", "alice")
        #expect(folder.status == 1 && folder.stderr.contains("is a directory"), "\(folder.stderr)")
        #expect(try await parley.run("receive", "--account", "bob").status == 0)
        let bobsHistory = try await parley.run("history", "alice", "--account", "bob", "--json").stdout
        #expect(bobsHistory.contains("\"body\":\"a line from standard input\""), "\(bobsHistory)")
        #expect(
            !(try await parley.run("history", "bob", "--account", "alice").stdout.contains("failed")),
            "a refused attachment leaves no message")

        // A message named the same way on every device: AUTHOR:TIMESTAMP.
        let pipedLine = try #require(bobsHistory.split(separator: "\n").first { $0.contains("a line from standard input") })
        let timestamp = try #require(CommandLineScenarioTests.json(String(pipedLine))["timestamp"] as? Int)
        #expect(try await parley.run("react", "alice:\(timestamp)", "🎉", "--account", "bob").status == 0)
        #expect(try await parley.run("edit", "me:\(timestamp)", "edited by author and timestamp", "--account", "alice").status == 0)
        let unknownMessage = try await parley.run("react", "alice:1", "--account", "bob")
        #expect(unknownMessage.status == 1 && unknownMessage.stderr.contains("no message from alice sent at 1"), "\(unknownMessage.stderr)")
        #expect(try await parley.run("receive", "--account", "alice").status == 0)
        #expect(try await parley.run("history", "bob", "--account", "alice", "--json").stdout.contains("🎉"))
    }
}

/// Reads lines from a pipe on a background thread.
final class LineReader: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [String] = []

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            var buffer = Data()
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                buffer += data
                while let newline = buffer.firstIndex(of: 10) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer = Data(buffer[(newline + 1)...])
                    condition.lock()
                    lines.append(line)
                    condition.signal()
                    condition.unlock()
                }
            }
        }
    }

    /// The next line, waiting at most `seconds` (on a thread of its own: ``runBlocking(_:)``); `nil` when none came.
    func next(timeout seconds: Double) async -> String? {
        await runBlocking { self.blockingNext(timeout: seconds) }
    }

    private func blockingNext(timeout seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while lines.isEmpty { if !condition.wait(until: deadline) { return nil } }
        return lines.removeFirst()
    }
}
