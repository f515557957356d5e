import Foundation
import Testing

/// signal-cli's tooling against Parley: pysignalclijsonrpc (PyPI) — a signal-cli JSON-RPC client library — drives
/// `parley daemon --http` for an account on a real `parley-server`: sends 1:1 and to a group it creates, reacts, lists,
/// reads an incoming message from the server-sent event stream, leaves the group; the other accounts' `parley`
/// commands then see what it did.
@Suite struct SignalCLICompatibilityTests {
    /// A real `parley-server` in a fresh data directory, and a `parley` command with its own home.
    static func serverAndClient() async throws -> (ServerProcess, CommandLineClientTests.Parley, String) {
        let directory = NSTemporaryDirectory() + "parley-signal-cli-\(UUID())"
        return (try await ServerProcess(arguments: ["--data-directory", directory]), try CommandLineClientTests.Parley(), directory)
    }

    /// Registers each (local account, digits-only username); returns the account ids by local account.
    static func register(
        _ accounts: [(String, String)], with parley: CommandLineClientTests.Parley,
        on server: ServerProcess
    ) async throws -> [String: String] {
        var ids: [String: String] = [:]
        for (account, digits) in accounts {
            let registered = try await parley.run("register", digits, "--server", server.baseURL, "--account", account, "--json")
            let fields = try JSONSerialization.jsonObject(with: Data(registered.stdout.utf8)) as? [String: Any]
            ids[account] = try #require(fields?["accountId"] as? String)
        }
        return ids
    }

    /// Starts `parley arguments` (a daemon or the REST API) and waits for the address it says it listens on.
    static func startListening(
        _ parley: CommandLineClientTests.Parley, _ arguments: [String],
        environment: [String: String] = [:]
    ) async throws -> (ChildProcess, String) {
        let process = parley.process(arguments)
        process.environment = (process.environment ?? [:]).merging(environment) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let lines = LineReader(errors.fileHandleForReading)
        while let line = await lines.next(timeout: 30) {
            if let range = line.range(of: "listening on ") {
                let address = line[range.upperBound...].trimmingCharacters(in: .whitespaces)
                return (process, address.hasPrefix("http://") ? String(address.dropFirst(7)) : address)
            }
        }
        process.terminate()
        throw ServerProcessError.notConfigured
    }

    @Test func pysignalclijsonrpcDrivesTheDaemonOverHTTP() async throws {
        let (server, parley, directory) = try await Self.serverAndClient()
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        // signal-cli's tools name people by phone number: these accounts' usernames are the digits.
        let accountIds = try await Self.register(
            [("alice", "15550000001"), ("bob", "15550000002"), ("carol", "15550000003")], with: parley, on: server)

        let (daemon, daemonAddress) = try await Self.startListening(parley, ["daemon", "--http", "127.0.0.1:0", "--account", "alice"])
        defer { if daemon.isRunning { daemon.terminate() } }
        let endpoint = "http://" + daemonAddress

        let python = ChildProcess()
        python.executableURL = URL(
            fileURLWithPath: ProcessInfo.processInfo.environment["PARLEY_PYTHON"]
                ?? GRPCInteropTests.packageRoot.appendingPathComponent(".build/python/bin/python3").path)
        python.arguments = [
            GRPCInteropTests.packageRoot.appendingPathComponent("Scripts/interop/signal_cli_jsonrpc_client.py").path,
            endpoint, "+15550000001", "+15550000002", "+15550000003",
        ]
        let output = Pipe()
        let pythonErrors = Pipe()
        let pythonInput = Pipe()
        python.standardInput = pythonInput
        python.standardOutput = output
        python.standardError = pythonErrors
        try python.run()
        defer { if python.isRunning { python.terminate() } }
        let steps = LineReader(output.fileHandleForReading)
        var seen: [String] = []
        while let line = await steps.next(timeout: 60) {
            seen.append(line)
            if line == "LISTENING", !seen.contains("AWAY") {
                // The bot's event stream is open: Bob writes to it.
                #expect(try await parley.run("send", "15550000001", "ping from bob", "--account", "bob").status == 0)
            }
            if line == "AWAY" {
                // The bot is disconnected: two messages arrive and the daemon stores them before it comes back.
                for text in ["while away 1", "while away 2"] {
                    #expect(try await parley.run("send", "15550000001", text, "--account", "bob").status == 0)
                }
                try await Task.sleep(for: .seconds(2))
                pythonInput.fileHandleForWriting.write(Data("SENT\n".utf8))
            }
            if line == "OK" || line.hasPrefix("FAILED") { break }
        }
        await python.exited()
        let stderr = String(decoding: await pythonErrors.fileHandleForReading.readAll(), as: UTF8.self)
        #expect(python.terminationStatus == 0, "the bot stopped: \(seen.joined(separator: " | ")) \(stderr)")
        #expect(seen.contains("EVENT ping from bob") && seen.contains("CAUGHT UP") && seen.last == "OK", "\(seen)")
        #expect(seen.contains { $0.hasPrefix("username pybot.") }, "\(seen)")

        // At most 64 event streams at once: the next gets a stream that only says when to come back (an SSE `retry:`,
        // which makes an EventSource reconnect then; a 503 would end it for good) and ends. (The bot's last stream may
        // still hold a place: a stream's place is given back when a write to its gone client fails, at the latest with
        // the next keep-alive.)
        let daemonPort = try #require(daemonAddress.split(separator: ":").last.flatMap { Int($0) })
        var streams: [RawConnection] = []
        var streamAnswers: [String] = []
        var turnedAway: (text: String, closed: Bool)?
        for _ in 0..<65 where turnedAway == nil {
            let stream = try RawConnection(port: daemonPort)
            #expect(stream.send("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1:\(daemonPort)\r\nAccept: text/event-stream\r\n\r\n"))
            var answer = (text: "", closed: false)
            for _ in 0..<20 where !answer.text.contains("\r\n\r\n") && !answer.closed {
                let read = await stream.read(for: 0.1)
                answer = (answer.text + read.text, read.closed)
            }
            if answer.text.contains("retry: 5000") { turnedAway = answer }
            streamAnswers.append(answer.text)
            streams.append(stream)
        }
        let opened = streamAnswers.filter { $0.hasPrefix("HTTP/1.1 200") && !$0.contains("retry: 5000") }.count
        // The turned-away stream is whole (its length given): it ends there.
        #expect(
            (63...64).contains(opened) && turnedAway?.text.hasPrefix("HTTP/1.1 200") == true
                && turnedAway?.text.lowercased().contains("content-length: 38") == true
                && turnedAway?.text.hasSuffix("streams\n\n") == true,
            "\(opened) opened; \(String(describing: turnedAway))")
        streams.removeAll()

        // What the bot did, as Bob and Carol's own clients see it.
        #expect(try await parley.run("receive", "--account", "bob").status == 0)
        let bobsView = try await parley.run("history", "15550000001", "--account", "bob", "--json").stdout
        #expect(bobsView.contains("hello from pysignalclijsonrpc") && bobsView.contains("👍"))
        #expect(try await parley.run("receive", "--account", "carol").status == 0)
        let carolsGroups = try await parley.run("group", "list", "--account", "carol", "--json").stdout
        #expect(carolsGroups.contains("\"title\":\"Bots\""))
        // The group message's mention of Carol (pysignalclijsonrpc's `mention`) is in Carol's copy.
        let carolsGroupHistory = try await parley.run(
            "history", "--group", try #require(Self.groupId(in: carolsGroups)), "--account", "carol",
            "--json"
        ).stdout
        let carol = try #require(accountIds["carol"])
        #expect(carolsGroupHistory.contains(#""mentions":[{"accountId":"\#(carol)","length":6,"start":13}]"#), "\(carolsGroupHistory)")
        // Alice left: Carol's group has Bob and Carol.
        let alice = try #require(accountIds["alice"])
        let bob = try #require(accountIds["bob"])
        #expect(carolsGroups.contains(bob) && carolsGroups.contains(carol) && !carolsGroups.contains(alice))
    }

    /// The first group id in `parley group list --json` output (a JSON object per line).
    static func groupId(in listing: String) -> String? {
        guard let line = listing.split(separator: "\n").first,
            let group = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else { return nil }
        return group["groupId"] as? String
    }

    /// One daemon for two accounts (signal-cli's multi-account mode) over TCP: requests pick the account with `account`.
    @Test func oneDaemonServesSeveralAccountsOverTCP() async throws {
        let (server, parley, directory) = try await Self.serverAndClient()
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        _ = try await Self.register([("dana", "15550000011"), ("eli", "15550000012")], with: parley, on: server)
        let (daemon, daemonAddress) = try await Self.startListening(parley, ["daemon", "--tcp", "127.0.0.1:0", "--all-accounts"])
        defer { if daemon.isRunning { daemon.terminate() } }
        let port = daemonAddress.split(separator: ":").last.flatMap { Int($0) }
        let connection = try RawConnection(port: try #require(port))
        #expect(
            connection.send(
                #"{"jsonrpc":"2.0","id":1,"method":"version"}"# + "\n"
                    + #"[{"jsonrpc":"2.0","id":2,"method":"getUserStatus","params":{"account":"+15550000011","recipient":"+15550000012"}},{"jsonrpc":"2.0","method":"version"}]"#
                    + "\n"
                    + #"{"jsonrpc":"2.0","id":3,"method":"send","params":{"recipient":["+15550000012"],"message":"which account?"}}"# + "\n"
                    + #"{"jsonrpc":"2.0","id":4,"method":"listGroups","params":{"account":"+15550000099"}}"# + "\n"
                    + #"{"jsonrpc":"2.0","id":5,"method":"send","params":{"account":"+15550000011","recipient":["+15550000012"],"message":"over tcp"}}"#
                    + "\n"
                    + #"{"jsonrpc":"2.0","id":6,"method":"sendReaction","params":{"account":"+15550000011","recipient":"+15550000012","emoji":"👍","targetAuthor":"+15550000012","targetTimestamp":-5}}"#
                    + "\n"))
        var answers = ""
        // Five answers and the notification for Eli's account when the message reaches it (before or after id 5's answer).
        for _ in 0..<60 where !(answers.contains(#""method":"receive""#) && answers.contains(#""id":6"#)) {
            answers += await connection.read(for: 0.5).text
        }
        // Eli's delivery receipt reaches Dana's account within moments: it may already be among these lines.
        let lines = answers.split(separator: "\n").map(String.init).filter { !$0.contains(#""receiptMessage""#) }
        #expect(lines.count == 7, "\(answers)")
        #expect(lines.first?.contains(#""version":"0.1.0""#) == true)
        // A batch is answered as one array, without the notification in it.
        #expect(lines.count > 1 && lines[1].hasPrefix("[") && lines[1].contains(#""isRegistered":true"#) && !lines[1].contains("0.1.0"))
        #expect(lines.count > 2 && lines[2].contains("-32602") && lines[2].contains("Method requires valid account parameter"))
        #expect(lines.count > 3 && lines[3].contains("-32602") && lines[3].contains("Specified account does not exist"))
        #expect(lines.contains { $0.contains(#""id":5"#) && $0.contains(#""type":"SUCCESS""#) })
        // A negative timestamp is a user error, not a crash: the daemon answers and goes on.
        #expect(lines.contains { $0.contains(#""id":6"#) && $0.contains(#""code":-1"#) && $0.contains("Invalid timestamp") })
        #expect(daemon.isRunning)

        // Eli reacts to Dana's message: Dana's account hears of the reaction and of Eli's delivery receipt.
        let sent = try #require(lines.first { $0.contains(#""id":5"#) })
        let timestamp = try #require(sent.range(of: #""timestamp":[0-9]+"#, options: .regularExpression).map { sent[$0].dropFirst(12) })
        #expect(
            connection.send(
                #"{"jsonrpc":"2.0","id":7,"method":"sendReaction","params":{"account":"+15550000012","recipient":"+15550000011","emoji":"🎉","targetAuthor":"+15550000011","targetTimestamp":"#
                    + timestamp + "}}\n"))
        var more = ""
        for _ in 0..<60
        where !(more.contains(#""reaction""#) && (answers + more).contains(#""receiptMessage""#) && more.contains(#""id":7"#)) {
            more += await connection.read(for: 0.5).text
        }
        let events = (answers + "\n" + more).split(separator: "\n").map(String.init)
        #expect(events.contains { $0.contains(#""id":7"#) && $0.contains(#""type":"SUCCESS""#) }, "\(more)")
        #expect(
            events.contains {
                $0.contains(#""account":"+15550000011""#) && $0.contains(#""emoji":"🎉""#)
                    && $0.contains(#""targetSentTimestamp":\#(timestamp)"#) && $0.contains(#""isRemove":false"#)
            }, "\(more)")
        #expect(events.contains { $0.contains(#""account":"+15550000011""#) && $0.contains(#""isDelivery":true"#) }, "\(more)")

        // Dana starts typing to Eli: Eli's account hears it (an ephemeral event, relayed over the sockets only).
        #expect(
            connection.send(
                #"{"jsonrpc":"2.0","id":8,"method":"sendTyping","params":{"account":"+15550000011","recipient":"+15550000012"}}"# + "\n"))
        var typing = ""
        for _ in 0..<40 where !typing.contains(#""typingMessage""#) { typing += await connection.read(for: 0.5).text }
        // 1:1: no groupId (signal-cli leaves it out).
        #expect(
            typing.split(separator: "\n").contains {
                $0.contains(#""account":"+15550000012""#) && $0.contains(#""action":"STARTED""#)
                    && !$0.contains("groupId")
            }, "\(typing)")

        // Eli acknowledges Dana's message by its timestamp (signal-cli's sendReceipt): Dana's account hears it read.
        #expect(
            connection.send(
                #"{"jsonrpc":"2.0","id":11,"method":"sendReceipt","params":{"account":"+15550000012","recipient":"+15550000011","targetTimestamp":"#
                    + timestamp + "}}\n"))
        var read = ""
        for _ in 0..<40 where !(read.contains(#""isRead":true"#) && read.contains(#""id":11"#)) {
            read += await connection.read(for: 0.5).text
        }
        #expect(read.split(separator: "\n").contains { $0.contains(#""id":11"#) && $0.contains(#""type":"SUCCESS""#) }, "\(read)")
        #expect(
            read.split(separator: "\n").contains {
                $0.contains(#""account":"+15550000011""#) && $0.contains(#""isRead":true"#)
                    && $0.contains(timestamp)
            }, "\(read)")

        // Dana edits her message (signal-cli's send with editTimestamp): Eli's account hears an editMessage. A signal-cli
        // device link URI is not a Parley link code: a user error.
        #expect(
            connection.send(
                #"{"jsonrpc":"2.0","id":9,"method":"send","params":{"account":"+15550000011","recipient":"+15550000012","message":"over tcp, edited","editTimestamp":"#
                    + timestamp + "}}\n"
                    + #"{"jsonrpc":"2.0","id":10,"method":"addDevice","params":{"account":"+15550000011","uri":"sgnl://linkdevice?uuid=x&pub_key=y"}}"#
                    + "\n"))
        var edited = ""
        for _ in 0..<40 where !(edited.contains(#""editMessage""#) && edited.contains(#""id":10"#)) {
            edited += await connection.read(for: 0.5).text
        }
        let editLines = edited.split(separator: "\n").map(String.init)
        #expect(
            editLines.contains {
                $0.contains(#""account":"+15550000012""#) && $0.contains(#""targetSentTimestamp":\#(timestamp)"#)
                    && $0.contains("over tcp, edited")
            }, "\(edited)")
        #expect(editLines.contains { $0.contains(#""id":10"#) && $0.contains(#""code":-1"#) && $0.contains("parley://link") }, "\(edited)")
        #expect(
            lines.contains { $0.contains(#""method":"receive""#) && $0.contains(#""account":"+15550000012""#) && $0.contains("over tcp") })
        // The daemon receives for eli: a second receiver is refused (not left to split her messages with it), and her
        // history shows what the daemon stored.
        let refused = try await parley.run("receive", "--account", "eli")
        #expect(refused.status != 0 && refused.stderr.contains("is receiving for this account"), "\(refused)")
        #expect(try await parley.run("history", "15550000011", "--account", "eli").stdout.contains("over tcp"))
    }

    /// A line client that was away catches up: `subscribeReceive` with `since` (the `message.id` of the last notification
    /// it saw) replays what the account stored meanwhile, from the database, each message once, before the live ones.
    @Test func aLineClientCatchesUpWithSubscribeReceiveSince() async throws {
        let (server, parley, directory) = try await Self.serverAndClient()
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        _ = try await Self.register([("fay", "15550000021"), ("gus", "15550000022")], with: parley, on: server)
        let (daemon, daemonAddress) = try await Self.startListening(parley, ["daemon", "--tcp", "127.0.0.1:0", "--account", "gus"])
        defer { if daemon.isRunning { daemon.terminate() } }
        let port = try #require(daemonAddress.split(separator: ":").last.flatMap { Int($0) })

        // The first message reaches a connected client; its notification carries the message's local id. Then the
        // client goes away (its connection closes at the end of this block).
        let cursor: Int64
        do {
            let first = try RawConnection(port: port)
            #expect(try await parley.run("send", "15550000022", "first while connected", "--account", "fay").status == 0)
            var seen = ""
            for _ in 0..<40 where !seen.contains("first while connected") { seen += await first.read(for: 0.5).text }
            let notification = try #require(seen.split(separator: "\n").first { $0.contains("first while connected") })
            let message = try #require(notification.range(of: #""message":\{.*\}"#, options: .regularExpression).map { notification[$0] })
            cursor = try #require(
                message.range(of: #""id":[0-9]+"#, options: .regularExpression)
                    .flatMap { Int64(message[$0].dropFirst(5)) })
        }

        // Two more arrive while no client is connected: the daemon stores them (its `listen` runs on).
        #expect(try await parley.run("send", "15550000022", "second while away", "--account", "fay").status == 0)
        #expect(try await parley.run("send", "15550000022", "third while away", "--account", "fay").status == 0)
        var stored = ""
        for _ in 0..<40 where !stored.contains("third while away") {
            try await Task.sleep(for: .milliseconds(500))
            stored = try await parley.run("history", "15550000021", "--account", "gus").stdout
        }
        #expect(stored.contains("third while away"))

        // The client comes back and asks for what it missed since the first message.
        let second = try RawConnection(port: port)
        #expect(second.send(#"{"jsonrpc":"2.0","id":1,"method":"subscribeReceive","params":{"since":\#(cursor)}}"# + "\n"))
        var caughtUp = ""
        for _ in 0..<40 where !(caughtUp.contains("third while away") && caughtUp.contains(#""id":1"#)) {
            caughtUp += await second.read(for: 0.5).text
        }
        let lines = caughtUp.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("second while away") }.count == 1, "\(caughtUp)")
        #expect(lines.filter { $0.contains("third while away") }.count == 1, "\(caughtUp)")
        #expect(!caughtUp.contains("first while connected"), "\(caughtUp)")
        #expect(lines.contains { $0.contains(#""id":1"#) && $0.contains(#""result":0"#) }, "\(caughtUp)")
        // A cursor that is not a message id is refused with signal-cli's invalid-params error.
        #expect(second.send(#"{"jsonrpc":"2.0","id":2,"method":"subscribeReceive","params":{"since":"yesterday"}}"# + "\n"))
        var refused = ""
        for _ in 0..<20 where !refused.contains(#""id":2"#) { refused += await second.read(for: 0.5).text }
        #expect(refused.contains("-32602"), "\(refused)")
    }

    /// PyPI's signalbot — a bot framework for signal-cli-rest-api — against `parley rest-api`: a ping/pong bot answers
    /// "ping" in a 1:1 chat and in a group, showing itself typing in each, hears Pat typing in the group, and the
    /// person who asked sees both answers.
    @Test func signalbotAnswersPingsThroughTheRESTAPI() async throws {
        let (server, parley, directory) = try await Self.serverAndClient()
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        // signalbot checks phone numbers: these are valid ones, as digits-only usernames.
        let accountIds = try await Self.register(
            [("bot", "12025550123"), ("pat", "14155552671"), ("quinn", "16175550100")], with: parley, on: server)
        let created = try await parley.run("group", "create", "Pings", "12025550123", "16175550100", "--account", "pat", "--json")
        let group = try #require(
            (try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: Any])?["groupId"] as? String)

        let (restAPI, restAPIAddress) = try await Self.startListening(parley, ["rest-api", "--listen", "127.0.0.1:0", "--account", "bot"])
        defer { if restAPI.isRunning { restAPI.terminate() } }

        let bot = ChildProcess()
        bot.executableURL = URL(
            fileURLWithPath: ProcessInfo.processInfo.environment["PARLEY_PYTHON"]
                ?? GRPCInteropTests.packageRoot.appendingPathComponent(".build/python/bin/python3").path)
        bot.arguments = [
            GRPCInteropTests.packageRoot.appendingPathComponent("Scripts/interop/signalbot_ping.py").path,
            restAPIAddress, "+12025550123", "3",
        ]
        let output = Pipe()
        let botErrors = Pipe()
        bot.standardOutput = output
        bot.standardError = botErrors
        try bot.run()
        defer { if bot.isRunning { bot.terminate() } }
        let steps = LineReader(output.fileHandleForReading)
        var seen: [String] = []
        while let line = await steps.next(timeout: 70) {
            seen.append(line)
            if line.hasPrefix("PONG group.") {
                // Pat types in the group (the bot's account surely holds it now): the bot's typing handler hears it
                // there (typingMessage.groupId), and the bot finishes only once it has.
                let typed = try await parley.run("typing", "--group", group, "--account", "pat", "--json")
                #expect(typed.status == 0 && typed.stdout.contains(#""sent":true"#), "\(typed.stdout) \(typed.stderr)")
            }
            if line == "READY" {
                #expect(try await parley.run("send", "12025550123", "ping", "--account", "pat").status == 0)
                #expect(try await parley.run("send", "ping", "--group", group, "--account", "pat").status == 0)
                // A mention of the bot (`--mention` finds "@12025550123" in the text): it answers with a mention of Pat.
                #expect(
                    try await parley.run(
                        "send", "👋 @12025550123 are you there?", "--group", group, "--mention", "12025550123",
                        "--account", "pat"
                    ).status == 0)
            }
            if line.hasPrefix("DONE") || line.hasPrefix("TIMEOUT") { break }
        }
        await bot.exited()
        let stderr = String(decoding: await botErrors.fileHandleForReading.readAll(), as: UTF8.self)
        #expect(bot.terminationStatus == 0, "the bot: \(seen.joined(separator: " | ")) \(stderr.suffix(2000))")
        let pat = try #require(accountIds["pat"])
        #expect(seen.contains("PONG \(pat)"), "\(seen)")
        #expect(seen.contains { $0.hasPrefix("PONG group.") }, "\(seen)")
        #expect(seen.contains { $0.hasPrefix("MENTIONED group.") }, "\(seen)")
        let pongGroup = try #require(seen.first { $0.hasPrefix("PONG group.") }.map { String($0.dropFirst(5)) })
        #expect(seen.contains("TYPING \(pongGroup) STARTED"), "\(seen)")

        // Web pages cannot use it: a cross-site request or WebSocket handshake (with an Origin) is 403, a foreign Host 421.
        let port = try #require(restAPIAddress.split(separator: ":").last.flatMap { Int($0) })
        for (headers, status) in [
            ("Host: 127.0.0.1:\(port)\r\nOrigin: http://evil.example", "403"), ("Host: evil.example", "421"),
            (
                "Host: 127.0.0.1:\(port)\r\nOrigin: http://evil.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13", ""
            ),
        ] {
            let connection = try RawConnection(port: port)
            let path = status.isEmpty ? "/v1/receive/12025550123" : "/v1/health"
            connection.send("GET \(path) HTTP/1.1\r\n\(headers)\r\n\r\n")
            let answer = await connection.read(for: 2).text
            if status.isEmpty {
                #expect(!answer.contains(" 101 "), "a cross-site WebSocket was accepted: \(answer)")
            } else {
                #expect(answer.hasPrefix("HTTP/1.1 \(status)"), "\(headers): \(answer)")
            }
        }

        // The accounts and contacts routes answer in signal-cli-rest-api's shapes; a route for what Parley has no
        // counterpart of is 501 with an error naming it.
        func get(_ method: String, _ path: String) async throws -> String {
            let connection = try RawConnection(port: port)
            connection.send("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 0\r\n\r\n")
            return await connection.read(for: 2).text
        }
        let accountsAnswer = try await get("GET", "/v1/accounts")
        #expect(accountsAnswer.hasPrefix("HTTP/1.1 200") && accountsAnswer.contains("12025550123"), "\(accountsAnswer)")
        let contacts = try await get("GET", "/v1/contacts/12025550123")
        #expect(
            contacts.hasPrefix("HTTP/1.1 200") && contacts.contains(#""number":"+14155552671""#)
                && contacts.contains(#""message_expiration":"0""#), "\(contacts)")
        let stickers = try await get("GET", "/v1/sticker-packs/12025550123")
        #expect(stickers.hasPrefix("HTTP/1.1 501") && stickers.contains("not supported by Parley"), "\(stickers)")

        // A receiver that connects later catches up with `?since=`: the two pings the bot's account stored, each with the
        // local id a later reconnect would pass on. (A raw handshake: WebSocket client libraries send an Origin, which the
        // loopback guard refuses as a browser's.)
        let restPort = try #require(restAPIAddress.split(separator: ":").last.flatMap { Int($0) })
        let receiver = try RawConnection(port: restPort)
        #expect(
            receiver.send(
                "GET /v1/receive/12025550123?since=0 HTTP/1.1\r\nHost: 127.0.0.1:\(restPort)\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"))
        var replayed = ""
        for _ in 0..<20 where replayed.components(separatedBy: "\"ping\"").count < 3 { replayed += await receiver.read(for: 0.5).text }
        #expect(replayed.hasPrefix("HTTP/1.1 101"), "\(replayed.prefix(200))")
        #expect(
            replayed.components(separatedBy: "\"ping\"").count == 3 && replayed.components(separatedBy: "\"id\":").count >= 3,
            "\(replayed)")
        // A cursor that is not a message id is refused, not read as "no catch-up".
        let badCursor = try RawConnection(port: restPort)
        #expect(
            badCursor.send(
                "GET /v1/receive/12025550123?since=yesterday HTTP/1.1\r\nHost: 127.0.0.1:\(restPort)\r\n"
                    + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\n\r\n"))
        let refusedCursor = await badCursor.read(for: 2).text
        #expect(!refusedCursor.contains(" 101 "), "\(refusedCursor)")
        // At most 64 sockets at once (the receiver above holds one): the one past them is closed with 1013, "Try Again
        // Later", and says why.
        var sockets: [RawConnection] = []
        var answers: [[UInt8]] = []
        let headEnd: [UInt8] = Array("\r\n\r\n".utf8)
        for index in 0..<64 {
            let socket = try RawConnection(port: restPort)
            #expect(
                socket.send(
                    "GET /v1/receive/12025550123 HTTP/1.1\r\nHost: 127.0.0.1:\(restPort)\r\nUpgrade: websocket\r\n"
                        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"))
            var answer: [UInt8] = []
            // The last one's close frame (ending with its reason) follows its handshake answer.
            for _ in 0..<20
            where answer.firstRange(of: headEnd) == nil || (index == 63 && !String(decoding: answer, as: UTF8.self).hasSuffix(" once")) {
                let (bytes, closed) = await socket.readBytes(for: 0.1)
                answer += bytes
                if closed { break }
            }
            answers.append(answer)
            sockets.append(socket)
        }
        #expect(
            answers.allSatisfy { $0.starts(with: Array("HTTP/1.1 101".utf8)) },
            "\(answers.map { String(decoding: $0.prefix(20), as: UTF8.self) })")
        let last = answers[63]
        let frame = last.firstRange(of: headEnd).map { Array(last[$0.upperBound...]) } ?? []
        // FIN + close, unmasked, a short length, the code 1013 (0x03F5) big-endian, then the reason.
        #expect(
            frame.count > 4 && frame[0] == 0x88 && Int(frame[1]) == frame.count - 2 && frame[2] == 0x03 && frame[3] == 0xF5
                && String(decoding: frame.dropFirst(4), as: UTF8.self) == "too many /v1/receive sockets: at most 64 at once",
            "\(frame)")
        sockets.removeAll()

        // Pat's client shows the two answers: one in the 1:1 chat, one in the group.
        #expect(try await parley.run("receive", "--account", "pat").status == 0)
        #expect(try await parley.run("history", "12025550123", "--account", "pat").stdout.contains("pong"))
        #expect(try await parley.run("history", "--group", group, "--account", "pat").stdout.contains("pong"))
        // The bot's answer mentions Pat: signalbot's {author, start, length} arrived as Parley's mention.
        let groupHistory = try await parley.run("history", "--group", group, "--account", "pat", "--json").stdout
        #expect(groupHistory.contains(#""mentions":[{"accountId":"\#(pat)","length":1,"start":3}]"#), "\(groupHistory)")

        // Every route of signal-cli-rest-api, as the API document bundled with signalbot lists it, is served: answered,
        // refused with {"error": …}, or 501 for what Parley has no counterpart of — none unserved, none a 5xx.
        let walker = ChildProcess()
        walker.executableURL = bot.executableURL
        walker.arguments = [
            GRPCInteropTests.packageRoot.appendingPathComponent("Scripts/interop/rest_api_routes.py").path,
            restAPIAddress, "+12025550123",
        ]
        let walk = try await ProcessRun.run(walker)
        #expect(walk.status == 0 && walk.stdout.contains("FAILED 0"), "\(walk.stdout) \(walk.stderr.suffix(2000))")

        // The routes behind the account's own state do what signal-cli-rest-api's do.
        func request(_ method: String, _ path: String, _ body: String = "") async throws -> (status: Int, body: String) {
            let connection = try RawConnection(port: port)
            connection.send(
                "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
            let answer = await connection.read(for: 10).text
            let status = Int(answer.split(separator: " ").dropFirst().first ?? "") ?? 0
            return (status, answer.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n"))
        }
        let restGroup = try #require(seen.first { $0.hasPrefix("PONG group.") }.map { String($0.dropFirst(5)) })
        let settings = try await request("GET", "/v1/configuration/12025550123/settings")
        #expect(settings.status == 200 && settings.body.contains(#""trust_mode":"on-first-use""#), "\(settings)")
        #expect(try await request("POST", "/v1/configuration/12025550123/settings", #"{"trust_mode":"always"}"#).status == 400)
        let contact = try await request("GET", "/v1/contacts/12025550123/+14155552671")
        #expect(contact.status == 200 && contact.body.contains(pat), "\(contact)")
        #expect(try await request("PUT", "/v1/identities/12025550123/trust/+14155552671", #"{"trust_all_known_keys":true}"#).status == 204)
        #expect(try await request("PUT", "/v1/identities/12025550123/trust/+14155552671", #"{"verified_safety_number":"1"}"#).status == 400)
        let sentV1 = try await request("POST", "/v1/send", #"{"number":"+12025550123","recipients":["+14155552671"],"message":"from v1"}"#)
        #expect(sentV1.status == 201 && sentV1.body.contains("timestamp"), "\(sentV1)")
        // A send naming an unknown group (or person) fails whole: nothing goes to the others.
        let partial = try await request(
            "POST", "/v2/send", #"{"number":"+12025550123","recipients":["+14155552671","group.bm90LWEtZ3JvdXA="],"message":"not sent"}"#)
        #expect(partial.status == 400, "\(partial)")
        let unknownPerson = try await request(
            "POST", "/v2/send", #"{"number":"+12025550123","recipients":["+14155552671","+19999999997"],"message":"not sent"}"#)
        #expect(unknownPerson.status == 400, "\(unknownPerson)")
        // Members: Quinn removed, then the bot leaves; Pat's client sees both.
        let removed = try await request("DELETE", "/v1/groups/12025550123/\(restGroup)/members", #"{"members":["+16175550100"]}"#)
        #expect(removed.status == 204, "\(removed)")
        let afterRemoval = try await request("GET", "/v1/groups/12025550123/\(restGroup)")
        #expect(afterRemoval.status == 200 && !afterRemoval.body.contains("16175550100"), "\(afterRemoval)")
        #expect(try await request("POST", "/v1/groups/12025550123/\(restGroup)/quit").status == 204)
        let afterQuit = try await request("GET", "/v1/groups/12025550123/\(restGroup)")
        #expect(afterQuit.body.contains(#""member":false"#), "\(afterQuit)")
        // A file Pat sends is listed and downloaded through the REST door (streamed from the decrypted file).
        let note = directory + "-note.txt"
        try Data("an attachment for the bot".utf8).write(to: URL(fileURLWithPath: note))
        defer { try? FileManager.default.removeItem(atPath: note) }
        #expect(try await parley.run("send", "12025550123", "with a file", "--attach", note, "--account", "pat").status == 0)
        var listed = ""
        for _ in 0..<40 where !listed.contains("_") {
            try await Task.sleep(for: .milliseconds(250))
            listed = try await request("GET", "/v1/attachments").body
        }
        let attachmentId = try #require(
            listed.range(of: #"[0-9a-f-]+_[0-9]+"#, options: .regularExpression).map { String(listed[$0]) }, "\(listed)")
        let downloaded = try await request("GET", "/v1/attachments/\(attachmentId)")
        #expect(downloaded.status == 200 && downloaded.body == "an attachment for the bot", "\(downloaded)")
        let malformed = try await request("POST", "/v2/send", "{")
        #expect(malformed.status == 400 && malformed.body.contains("Couldn't process request - invalid request"), "\(malformed)")
        // A group the bot left, a recipient list with a number in it, a view-once attachment: each fails the whole
        // request, and Pat gets nothing from it.
        for body in [
            #"{"number":"+12025550123","recipients":["+14155552671","\#(restGroup)"],"message":"not sent"}"#,
            #"{"number":"+12025550123","recipients":["+14155552671",14155552671],"message":"not sent"}"#,
            #"{"number":"+12025550123","recipients":["+14155552671"],"message":"not sent","view_once":true,"base64_attachments":["aGk="]}"#,
        ] {
            let refused = try await request("POST", "/v2/send", body)
            #expect(refused.status == 400, "\(body): \(refused)")
        }
        #expect(try await parley.run("receive", "--account", "pat").status == 0)
        let patsChat = try await parley.run("history", "12025550123", "--account", "pat").stdout
        #expect(patsChat.contains("from v1") && !patsChat.contains("not sent"), "\(patsChat)")
        let patsGroup = try await parley.run("group", "list", "--account", "pat", "--json").stdout
        let quinn = try #require(accountIds["quinn"])
        let botId = try #require(accountIds["bot"])
        #expect(!patsGroup.contains(quinn) && !patsGroup.contains(botId), "\(patsGroup)")
    }
}
