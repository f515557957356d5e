import Foundation
import Testing

/// `parley daemon --tcp` (signal-cli's line transport) under hostile and careless local clients: a web page making the
/// browser post JSON-RPC lines to the port, a line longer than the limit, a client that pipelines requests and never
/// reads its answers, more connections than the daemon takes. None of them gets anything done or holds up a client
/// that behaves.
@Suite struct DaemonLineTransportTests {
    @Test func hostileLineClientsGetNothingDoneAndHoldUpNoOne() async throws {
        let (server, parley, directory) = try await SignalCLICompatibilityTests.serverAndClient()
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        _ = try await SignalCLICompatibilityTests.register([("ann", "15550000031"), ("ben", "15550000032")], with: parley, on: server)
        // Its own temporary directory, where `data:` attachments are staged.
        let temporary = directory + "-tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let (daemon, daemonAddress) = try await SignalCLICompatibilityTests.startListening(
            parley, ["daemon", "--tcp", "127.0.0.1:0", "--all-accounts"], environment: ["TMPDIR": temporary])
        defer { if daemon.isRunning { daemon.terminate() } }
        let port = try #require(daemonAddress.split(separator: ":").last.flatMap { Int($0) })
        let version = #"{"jsonrpc":"2.0","id":1,"method":"version"}"# + "\n"

        // A browser's no-cors POST from a web page: the request line ends the connection before a body line is read.
        let browser = try RawConnection(port: port)
        #expect(
            browser.send(
                "POST / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: https://evil.example\r\nContent-Type: text/plain\r\n"
                    + "Content-Length: \(version.utf8.count + 1)\r\n\r\n\n" + version))
        let browsed = await Self.readUntilClosed(browser)
        #expect(browsed.closed && !browsed.text.contains("0.1.0"), "\(browsed.text)")

        // A line over the limit is answered with signal-cli's invalid-request error, then the connection closes.
        let long = try RawConnection(port: port)
        #expect(long.send(bytes: [UInt8](repeating: UInt8(ascii: "x"), count: 1024 * 1024 + 1)))
        let refused = await Self.readUntilClosed(long)
        #expect(refused.closed && refused.text.contains("-32600") && refused.text.contains("longer than"), "\(refused.text)")

        // A parameter of the wrong type is invalid, not absent: no new message for a malformed edit, no reaction added
        // for a malformed remove, no send to part of a malformed list.
        let careless = try RawConnection(port: port)
        let account = #""account":"+15550000031","recipient":["+15550000032"]"#
        #expect(
            careless.send(
                #"{"jsonrpc":"2.0","id":11,"method":"send","params":{\#(account),"message":"edited?","editTimestamp":"1.7e12"}}"# + "\n"
                    + #"{"jsonrpc":"2.0","id":12,"method":"sendReaction","params":{\#(account),"emoji":"👍","targetAuthor":"+15550000032","targetTimestamp":5,"remove":"true"}}"#
                    + "\n"
                    + #"{"jsonrpc":"2.0","id":13,"method":"send","params":{"account":"+15550000031","recipient":["+15550000032",5],"message":"to whom?"}}"#
                    + "\n"))
        var invalid = ""
        // An attachment staged for a send that then fails (the next attachment is malformed) is not left behind.
        let attachment = "data:text/plain;filename=note.txt;base64," + Data(repeating: 7, count: 4096).base64EncodedString()
        #expect(
            careless.send(
                #"{"jsonrpc":"2.0","id":14,"method":"send","params":{"account":"+15550000031","recipient":["+15550000032"],"message":"x","attachment":["\#(attachment)","data:nonsense"]}}"#
                    + "\n"))
        for _ in 0..<40
        where
            !(invalid.contains(#""id":11"#) && invalid.contains(#""id":12"#) && invalid.contains(#""id":13"#)
            && invalid.contains(#""id":14"#))
        {
            invalid += await careless.read(for: 0.25).text
        }
        #expect(invalid.split(separator: "\n").contains { $0.contains(#""id":14"#) && $0.contains(#""code":-1"#) }, "\(invalid)")
        let staged = FileManager.default.enumerator(atPath: temporary)?.allObjects.compactMap { $0 as? String } ?? []
        #expect(!staged.contains { $0.hasSuffix("note.txt") }, "\(staged)")
        for (id, problem) in [
            (11, "editTimestamp must be an integer"), (12, "remove must be true or false"), (13, "recipient must be a string or a list"),
        ] {
            #expect(
                invalid.split(separator: "\n").contains { $0.contains(#""id":\#(id)"#) && $0.contains("-32602") && $0.contains(problem) },
                "\(invalid)")
        }

        // A call naming more people or messages than the limit is refused before any is looked up (each lookup can be
        // a request to the server).
        let many = (0..<1_001).map { #""+1555\#(String(format: "%07d", $0))""# }.joined(separator: ",")
        let timestamps = (1...1_001).map(String.init).joined(separator: ",")
        #expect(
            careless.send(
                #"{"jsonrpc":"2.0","id":15,"method":"getUserStatus","params":{"account":"+15550000031","recipient":[\#(many)]}}"# + "\n"
                    + #"{"jsonrpc":"2.0","id":16,"method":"sendTyping","params":{"account":"+15550000031","recipient":[\#(many)]}}"# + "\n"
                    + #"{"jsonrpc":"2.0","id":17,"method":"sendReceipt","params":{"account":"+15550000031","recipient":"+15550000032","targetTimestamp":[\#(timestamps)]}}"#
                    + "\n"
                    + #"{"jsonrpc":"2.0","id":18,"method":"send","params":{"account":"+15550000031","groupId":[\#(String(repeating: #""AAAAAAAAAAAAAAAAAAAAAA==","#, count: 1_000))"AAAAAAAAAAAAAAAAAAAAAA=="],"message":"x"}}"#
                    + "\n"))
        var capped = ""
        for _ in 0..<40 where !(15...18).allSatisfy({ capped.contains(#""id":\#($0)"#) }) {
            capped += await careless.read(for: 0.25).text
        }
        for (id, limit) in [
            (15, "At most 1000 recipients"), (16, "At most 1000 recipients"), (17, "At most 1000 target timestamps"),
            (18, "At most 1000 groups"),
        ] {
            #expect(
                capped.split(separator: "\n").contains { $0.contains(#""id":\#(id)"#) && $0.contains(#""code":-1"#) && $0.contains(limit) },
                "\(capped)")
        }
        // A batch is bounded too: each call's bounds would multiply with its length.
        let batch = "[" + (0..<101).map { #"{"jsonrpc":"2.0","id":\#(100 + $0),"method":"version"}"# }.joined(separator: ",") + "]\n"
        #expect(careless.send(batch))
        var batchAnswer = ""
        for _ in 0..<20 where !batchAnswer.contains("per batch") { batchAnswer += await careless.read(for: 0.25).text }
        #expect(
            batchAnswer.contains("-32600") && batchAnswer.contains("at most 100 per batch") && !batchAnswer.contains("0.1.0"),
            "\(batchAnswer)")

        // A client pipelines requests and never reads the answers: its own writes wait (then it is cut off); a client
        // that reads still hears of a message the moment it comes.
        let stalled = try RawConnection(port: port)
        let reader = try RawConnection(port: port)
        let flood = String(repeating: version, count: 100_000)
        Thread.detachNewThread { _ = stalled.send(flood) }
        try await Task.sleep(for: .seconds(1))
        #expect(
            reader.send(
                #"{"jsonrpc":"2.0","id":2,"method":"send","params":{"account":"+15550000031","recipient":["+15550000032"],"message":"past the stalled one"}}"#
                    + "\n"))
        var heard = ""
        var sentAt: Date?
        for _ in 0..<40 where !heard.contains(#""message":"past the stalled one""#) || !heard.contains(#""method":"receive""#) {
            heard += await reader.read(for: 0.25).text
            if sentAt == nil, heard.contains(#""id":2"#) { sentAt = Date() }
        }
        let notified = heard.split(separator: "\n").contains { $0.contains(#""method":"receive""#) && $0.contains("past the stalled one") }
        #expect(notified, "\(heard)")
        // Well inside the 5 s a stalled client's write may wait: no one waits for it.
        #expect(sentAt.map { Date().timeIntervalSince($0) < 4 } == true, "\(heard)")

        // More connections than the daemon takes: the one past the limit is closed at once; when one goes, a new one is
        // served again.
        var open: [RawConnection] = []
        for _ in 0..<70 { open.append(try RawConnection(port: port)) }
        // All read at once for up to 2 s (a busy machine may take a moment to accept): the open ones say nothing.
        let reads = await withTaskGroup(of: (text: String, closed: Bool).self) { group in
            for connection in open { group.addTask { await connection.read(for: 2) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        var closedAtOnce = 0
        for read in reads where read.closed {
            closedAtOnce += 1
            #expect(read.text.contains("too many connections"), "\(read.text)")
        }
        // (64 at most: the reader and the careless client hold one each, the stalled client perhaps another.)
        #expect((7...9).contains(closedAtOnce), "\(closedAtOnce) of 70 closed")
        open.removeAll()
        try await Task.sleep(for: .seconds(1))
        let afterwards = try RawConnection(port: port)
        #expect(afterwards.send(version))
        var answer = ""
        for _ in 0..<20 where !answer.contains("0.1.0") { answer += await afterwards.read(for: 0.25).text }
        #expect(answer.contains("0.1.0"), "\(answer)")
        #expect(daemon.isRunning)
    }

    /// Everything `connection` says until it closes (or 10 s pass).
    static func readUntilClosed(_ connection: RawConnection) async -> (text: String, closed: Bool) {
        var text = ""
        for _ in 0..<40 {
            let read = await connection.read(for: 0.25)
            text += read.text
            if read.closed { return (text, true) }
        }
        return (text, false)
    }
}
