import Crypto
import Foundation
import Testing

/// `parley` in situations a user meets: a second machine linked with a code, bots on the daemon's Unix socket, a
/// sender killed between queueing and sending, and a 50 MiB attachment in bounded memory — all real processes.
@Suite struct CommandLineScenarioTests {
    typealias Parley = CommandLineClientTests.Parley

    static func startServer(_ directory: String, port: Int = 0) async throws -> ServerProcess {
        try await ServerProcess(arguments: ["--data-directory", directory], port: port)
    }

    static func json(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }

    @Test func aSecondMachineLinksWithACodeAndSeesTheConversation() async throws {
        let directory = NSTemporaryDirectory() + "parley-link-\(UUID())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await Self.startServer(directory)
        defer { server.stop() }
        // Two machines: two PARLEY_HOMEs that share nothing but the server.
        let desktop = try Parley()
        let laptop = try Parley()
        #expect(try await desktop.run("register", "frank", "--server", server.baseURL).status == 0)
        #expect(try await desktop.run("register", "grace", "--server", server.baseURL, "--account", "grace").status == 0)

        let waiting = laptop.process(["link", "--server", server.baseURL, "--device-name", "laptop", "--json"])
        let output = Pipe()
        waiting.standardOutput = output
        waiting.standardError = FileHandle.nullDevice
        try waiting.run()
        defer { if waiting.isRunning { waiting.terminate() } }
        let lines = LineReader(output.fileHandleForReading)
        let invitation = try #require(await lines.next(timeout: 30))
        let code = try #require(Self.json(invitation)["linkCode"] as? String)
        #expect(code.hasPrefix("parley://link?"))
        #expect(try await desktop.run("devices", "add", code).status == 0)
        let linkedLine = try #require(await lines.next(timeout: 30))
        let linked = Self.json(linkedLine)
        #expect(linked["deviceId"] as? Int == 2)
        await waiting.exited()
        #expect(waiting.terminationStatus == 0)

        // The laptop is frank: it receives what grace sends him, and the desktop's sends as sync copies.
        #expect(try await desktop.run("send", "frank", "hi frank", "--account", "grace").status == 0)
        #expect(try await desktop.run("send", "grace", "sent from the desktop").status == 0)
        #expect(try await laptop.run("receive", "--json").stdout.contains("\"stored\":2"))
        let history = try await laptop.run("history", "grace", "--json").stdout
        #expect(history.contains("hi frank") && history.contains("sent from the desktop"))
        // Each device by name, the one asking marked; a device registered without --device-name is named after its host.
        let listed = try await laptop.run("devices").stdout
        #expect(listed.contains("device 2 (laptop), added ") && listed.contains("← this device"), "\(listed)")
        #expect(listed.split(separator: "\n").first { $0.contains("← this device") }?.hasPrefix("device 2") == true, "\(listed)")
        #expect(listed.contains("device 1 (parley on "), "\(listed)")
        // A code that is not one gets a clear error, and a code used twice finds nothing to approve.
        let bad = try await desktop.run("devices", "add", "parley://link?address=x&key=y")
        #expect(bad.status != 0 && bad.stderr.contains("not a Parley link code"))
    }

    /// A server-stored group run from the command line by three people on their own machines: created with a member and
    /// an invitee, permissions only the administrator may set (the server refuses the others), an invite link a
    /// stranger joins by, approval, and a ban.
    @Test func aServerStoredGroupIsRunFromTheCommandLine() async throws {
        let directory = NSTemporaryDirectory() + "parley-groups-\(UUID())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await Self.startServer(directory)
        defer { server.stop() }
        let (ada, bo, cy, di) = (try Parley(), try Parley(), try Parley(), try Parley())
        for (parley, name) in [(ada, "ada1"), (bo, "bob1"), (cy, "cyd1"), (di, "dina")] {
            #expect(try await parley.run("register", name, "--server", server.baseURL).status == 0)
        }
        // Bo writes first, so Ada knows his profile key: he is a member at once; Cy is invited.
        #expect(try await bo.run("send", "ada1", "hello").status == 0)
        #expect(try await ada.run("receive").status == 0)
        let created = try await ada.run("group", "create", "Book club", "bob1", "cyd1", "--stored-on-server", "--json")
        let group = try #require(Self.json(created.stdout)["groupId"] as? String, "\(created.stdout) \(created.stderr)")
        #expect(group.count == 64)
        let info = Self.json(try await ada.run("group", "info", group, "--json").stdout)
        #expect(info["members"] as? [String] == ["ada1", "bob1"] && info["invited"] as? [String] == ["cyd1"], "\(info)")
        #expect(info["administrators"] as? [String] == ["ada1"])

        // Receiving, Bo's and Cy's clients read the group from the server; Cy, who never wrote to Ada, accepts herself.
        for parley in [bo, cy] { #expect(try await parley.run("receive").status == 0) }
        #expect(try await cy.run("group", "list").stdout.contains("Book club"))
        #expect(try await cy.run("group", "accept", group).status == 0)
        #expect(try await ada.run("send", "--group", group, "welcome").status == 0)
        #expect(try await cy.run("receive", "--json").stdout.contains("\"stored\":1"))
        #expect(try await cy.run("history", "--group", group).stdout.contains("welcome"))

        // Only the administrator sets permissions or makes administrators: the server refuses Bo.
        let refused = try await bo.run("group", "permissions", group, "--edit-details", "admins")
        #expect(refused.status != 0 && refused.stderr.contains("403"), "\(refused.stderr)")
        let selfPromotion = try await bo.run("group", "admin", group, "bob1")
        #expect(selfPromotion.status != 0 && selfPromotion.stderr.contains("403"), "\(selfPromotion.stderr)")
        #expect(try await ada.run("group", "permissions", group, "--edit-details", "admins", "--send", "admins").status == 0)
        let permissions = Self.json(try await ada.run("group", "info", group, "--json").stdout)
        #expect(permissions["editDetails"] as? String == "admins" && permissions["sendMessages"] as? String == "admins")
        // An announcements group: Bo's client refuses to post (and receivers would not show a post of his).
        #expect(try await bo.run("receive").status == 0)
        let post = try await bo.run("send", "--group", group, "may I?")
        #expect(post.status != 0 && post.stderr.contains("only administrators send"), "\(post.stderr)")

        // A link that needs approval: Di asks, Ada approves, Di's client hears and is in.
        let linked = Self.json(try await ada.run("group", "link", group, "--approval", "--json").stdout)
        let invite = try #require(linked["link"] as? String, "\(linked)")
        let asked = Self.json(try await di.run("group", "join", invite, "--json").stdout)
        #expect(asked["joined"] as? Bool == false && asked["groupId"] as? String == group, "\(asked)")
        #expect(try await ada.run("group", "requests", group).stdout.contains("dina"))
        #expect(try await ada.run("group", "approve", group, "dina").status == 0)
        #expect(try await di.run("receive").status == 0)
        #expect(try await di.run("group", "list").stdout.contains("Book club"))

        // Banned, Di is out and cannot come back by the link.
        #expect(try await ada.run("group", "ban", group, "dina").status == 0)
        let after = Self.json(try await ada.run("group", "info", group, "--json").stdout)
        #expect(after["banned"] as? [String] == ["dina"] && after["members"] as? [String] == ["ada1", "bob1", "cyd1"], "\(after)")
        let banned = try await di.run("group", "join", invite)
        #expect(banned.status != 0 && banned.stderr.contains("403"), "\(banned.stderr)")
    }

    @Test func theDaemonServesSeveralClientsOnAUnixSocket() async throws {
        let directory = NSTemporaryDirectory() + "parley-sock-\(UUID())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await Self.startServer(directory + "/server")
        defer { server.stop() }
        let parley = try Parley()
        #expect(try await parley.run("register", "heidi", "--server", server.baseURL, "--account", "heidi").status == 0)
        #expect(try await parley.run("register", "ivan", "--server", server.baseURL, "--account", "ivan").status == 0)

        let path = directory + "/ivan.sock"
        let daemon = parley.process(["daemon", "--socket", path, "--account", "ivan"])
        daemon.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        daemon.standardError = errors
        try daemon.run()
        defer { if daemon.isRunning { daemon.terminate() } }
        let listening = await LineReader(errors.fileHandleForReading).next(timeout: 30)
        #expect(listening?.contains("listening on") == true)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        let bot = try UnixSocketClient(path: path)
        let dashboard = try UnixSocketClient(path: path)
        bot.send(#"{"jsonrpc":"2.0","id":"a","method":"devices"}"#)
        dashboard.send(#"{"jsonrpc":"2.0","id":7,"method":"send","params":{"recipient":"heidi","text":"from the socket"}}"#)
        dashboard.send("{broken")
        #expect(try #require(await bot.lines.next(timeout: 20)).contains(#""id":"a""#))
        let sent = try #require(await dashboard.lines.next(timeout: 30))
        #expect(sent.contains(#""id":7"#) && sent.contains(#""sent":1"#), "\(sent)")
        #expect(try #require(await dashboard.lines.next(timeout: 20)).contains("-32700"))
        try await Task.sleep(for: .seconds(1))  // the daemon's WebSocket is connected
        #expect(try await parley.run("send", "ivan", "to every socket client", "--account", "heidi").status == 0)
        for client in [bot, dashboard] {
            let notification = try #require(await client.lines.next(timeout: 20))
            #expect(notification.contains(#""method":"receive""#) && notification.contains("to every socket client"))
        }
        #expect(try await parley.run("receive", "--account", "heidi", "--json").stdout.contains("\"stored\":1"))
        let history = try await parley.run("history", "ivan", "--account", "heidi", "--json").stdout
        #expect(history.contains("from the socket"))
        bot.close()
        dashboard.close()
        daemon.terminate()  // SIGTERM: the daemon removes its socket
        await daemon.exited()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aSenderKilledBetweenQueueingAndSendingSendsAfterRestart() async throws {
        let directory = NSTemporaryDirectory() + "parley-kill-\(UUID())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var server = try await Self.startServer(directory)
        let port = server.port
        let parley = try Parley()
        #expect(try await parley.run("register", "judy", "--server", server.baseURL, "--account", "judy").status == 0)
        let registered = Self.json(
            try await parley.run("register", "karl", "--server", server.baseURL, "--account", "karl", "--json").stdout)
        let karlId = try #require(registered["accountId"] as? String)
        server.stop()

        // The server hangs: the send commits, then blocks on the network — and the process is killed there.
        let silent = try SilentListener(port: port)
        let sender = parley.process(["send", karlId, "queued before the crash", "--account", "judy"])
        sender.standardOutput = FileHandle.nullDevice
        sender.standardError = FileHandle.nullDevice
        try sender.run()
        #expect(await silent.waitForConnection(timeout: 30), "the sender reached the network, so the message was committed")
        kill(sender.processIdentifier, SIGKILL)
        await sender.exited()
        #expect(sender.terminationReason == .uncaughtSignal)
        silent.close()

        server = try await Self.startServer(directory, port: port)
        defer { server.stop() }
        #expect(try await parley.run("receive", "--account", "judy").status == 0)  // runs the due send job
        #expect(try await parley.run("receive", "--account", "karl", "--json").stdout.contains("\"stored\":1"))
        #expect(try await parley.run("receive", "--account", "judy").status == 0)  // no second copy goes out
        #expect(try await parley.run("receive", "--account", "karl", "--json").stdout.contains("\"stored\":0"))
        let history = try await parley.run("history", "judy", "--account", "karl", "--json").stdout
        #expect(history.components(separatedBy: "queued before the crash").count == 2)
    }

    @Test func aFiftyMebibyteAttachmentRoundTripsInBoundedMemory() async throws {
        let directory = NSTemporaryDirectory() + "parley-big-\(UUID())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await Self.startServer(directory + "/server")
        defer { server.stop() }
        let parley = try Parley()
        #expect(try await parley.run("register", "lena", "--server", server.baseURL, "--account", "lena").status == 0)
        #expect(try await parley.run("register", "mike", "--server", server.baseURL, "--account", "mike").status == 0)

        // 50 MiB of random bytes, written in 1 MiB pieces.
        let source = directory + "/big.bin"
        #expect(FileManager.default.createFile(atPath: source, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: source))
        let random = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/urandom"))
        var digest = SHA256()
        for _ in 0..<50 {
            let piece = try #require(try random.read(upToCount: 1 << 20))
            digest.update(data: piece)
            try handle.write(contentsOf: piece)
        }
        try handle.close()

        func peakMiB(_ arguments: [String]) async throws -> (status: Int32, peak: Double, stderr: String) {
            let process = parley.process(arguments)
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            let sampler = PeakMemorySampler(pid: process.processIdentifier)
            let stderr = await errors.fileHandleForReading.readAll()
            await process.exited()
            return (process.terminationStatus, sampler.stop(), String(decoding: stderr, as: UTF8.self))
        }
        // The same commands with a 1-byte file give each process's baseline.
        let tiny = directory + "/tiny.bin"
        try Data([1]).write(to: URL(fileURLWithPath: tiny))
        let baseline = try await peakMiB(["send", "mike", "--attach", tiny, "--account", "lena"])
        let upload = try await peakMiB(["send", "mike", "--attach", source, "--account", "lena"])
        #expect(baseline.status == 0 && upload.status == 0)
        #expect(!upload.stderr.contains("\r") && !upload.stderr.contains("uploading big.bin ["), "no progress bar into a pipe")
        #expect(try await parley.run("receive", "--account", "mike", "--json").stdout.contains("\"stored\":2"))

        // `history --json` prints one message per line, newest first.
        let history = try await parley.run("history", "lena", "--account", "mike", "--json").stdout
        let newest = try #require(Self.json(String(history.prefix { $0 != "\n" }))["id"] as? Int)
        let download = try await peakMiB(["download", "\(newest)", "--to", directory + "/out", "--account", "mike"])
        #expect(download.status == 0, "\(download.stderr)")
        let received = try Data(contentsOf: URL(fileURLWithPath: directory + "/out/big.bin"))
        #expect(received.count == 50 << 20 && SHA256.hash(data: received) == digest.finalize())
        // Streaming keeps each process well under the file's size above its baseline.
        print("peak RSS MiB: baseline \(baseline.peak), upload \(upload.peak), download \(download.peak)")
        #expect(upload.peak - baseline.peak < 25, "upload peak \(upload.peak) MiB vs baseline \(baseline.peak) MiB")
        #expect(download.peak - baseline.peak < 25, "download peak \(download.peak) MiB vs baseline \(baseline.peak) MiB")
    }
}

/// A client of the daemon's Unix socket.
final class UnixSocketClient: @unchecked Sendable {
    private let descriptor: Int32
    let lines: LineReader

    init(path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8))
            raw[path.utf8.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw CocoaError(.fileReadUnknown) }
        self.descriptor = descriptor
        lines = LineReader(FileHandle(fileDescriptor: descriptor, closeOnDealloc: false))
    }

    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func close() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        Foundation.close(descriptor)
    }
}
