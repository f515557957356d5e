import Foundation
import Testing

/// `parley` when the server is away, and the jobs of a client that stays connected: what a person meets.
@Suite struct OfflineClientTests {
    typealias Parley = CommandLineClientTests.Parley

    /// A contact is written to with the server down: the message is queued at once (no lookup of the name), history and
    /// the safety number are read from the local database, and the message is delivered once the server is back.
    @Test func aContactCanBeWrittenToWhileTheServerIsDown() async throws {
        let directory = NSTemporaryDirectory() + "parley-offline-\(UUID())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var server = try await CommandLineScenarioTests.startServer(directory)
        let port = server.port
        let parley = try Parley()
        #expect(try await parley.run("register", "alice", "--server", server.baseURL, "--account", "alice").status == 0)
        #expect(try await parley.run("register", "bob", "--server", server.baseURL, "--account", "bob").status == 0)
        #expect(try await parley.run("send", "Bob", "hello", "--account", "alice").status == 0, "names compare without case")
        server.stop()

        let started = Date()
        let offline = try await parley.run("send", "bob", "written offline", "--account", "alice")
        #expect(offline.status == 0 && offline.stdout.contains("queued"), "\(offline.stdout) \(offline.stderr)")
        #expect(Date().timeIntervalSince(started) < 15, "one connection attempt, not one per job")
        let history = try await parley.run("history", "bob", "--account", "alice")
        #expect(history.status == 0 && history.stdout.contains("written offline"), "\(history.stderr)")
        #expect(try await parley.run("safety-number", "bob", "--account", "alice").status == 0)
        // Names never looked up wait with the name: one that turns out to exist is sent, one that does not fails.
        let stranger = try await parley.run("send", "carol", "hello stranger", "--account", "alice")
        #expect(stranger.status == 0 && stranger.stdout.contains("queued"), "\(stranger.stdout) \(stranger.stderr)")
        #expect(try await parley.run("send", "zed", "nobody reads this", "--account", "alice").status == 0)

        server = try await CommandLineScenarioTests.startServer(directory, port: port)
        defer { server.stop() }
        #expect(try await parley.run("register", "carol", "--server", server.baseURL, "--account", "carol").status == 0)
        #expect(try await parley.run("receive", "--account", "alice").status == 0)  // runs the queued jobs
        #expect(try await parley.run("receive", "--account", "carol").status == 0)
        #expect(try await parley.run("history", "alice", "--account", "carol").stdout.contains("hello stranger"))
        let conversations = try await parley.run("conversations", "--account", "alice", "--json").stdout
        #expect(conversations.contains("zed"), "the failed conversation keeps its name: \(conversations)")
        #expect(try await parley.run("history", "carol", "--account", "alice", "--json").stdout.contains(#""status":"sent""#))
        #expect(try await parley.run("receive", "--account", "bob").status == 0)
        let bobsView = try await parley.run("history", "alice", "--account", "bob", "--json").stdout
        #expect(bobsView.components(separatedBy: "written offline").count == 2, "delivered exactly once: \(bobsView)")
    }

    /// `parley listen` sends the delivery receipt for a message as it arrives, not at the next reconnection.
    @Test func listenSendsReceiptsAsMessagesArrive() async throws {
        let directory = NSTemporaryDirectory() + "parley-receipts-\(UUID())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await CommandLineScenarioTests.startServer(directory)
        defer { server.stop() }
        let parley = try Parley()
        #expect(try await parley.run("register", "alice", "--server", server.baseURL, "--account", "alice").status == 0)
        #expect(try await parley.run("register", "bob", "--server", server.baseURL, "--account", "bob").status == 0)
        #expect(try await parley.run("send", "bob", "first", "--account", "alice").status == 0)

        let listening = parley.process(["listen", "--account", "bob", "--json"])
        let output = Pipe()
        listening.standardOutput = output
        listening.standardError = FileHandle.nullDevice
        try listening.run()
        defer { if listening.isRunning { listening.terminate() } }
        let lines = LineReader(output.fileHandleForReading)
        #expect(await lines.next(timeout: 20)?.contains("first") == true)
        try await Task.sleep(for: .seconds(1))  // connected and drained: a message now arrives live

        #expect(try await parley.run("send", "bob", "second", "--account", "alice").status == 0)
        #expect(await lines.next(timeout: 20)?.contains("second") == true)
        var status = ""
        for _ in 0..<10 where !status.contains("delivered") {
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await parley.run("receive", "--account", "alice").status == 0)
            let history = try await parley.run("history", "bob", "--account", "alice", "--json", "--keep-unread").stdout
            status = history.components(separatedBy: "\n").first { $0.contains("\"second\"") } ?? history
        }
        #expect(status.contains("\"status\":\"delivered\""), "the receipt for a live message came within seconds: \(status)")

        // One receiver per account (issue 48, item 10): a second is refused, naming the first, instead of splitting the
        // messages with it; sending and reading history need no claim; once the listener ends, receiving works again.
        let second = try await parley.run("receive", "--account", "bob")
        #expect(second.status != 0 && second.stderr.contains("pid \(listening.processIdentifier)) is receiving"), "\(second)")
        #expect(try await parley.run("history", "alice", "--account", "bob").status == 0)
        listening.terminate()
        await listening.exited()
        #expect(try await parley.run("receive", "--account", "bob").status == 0)
    }
}
