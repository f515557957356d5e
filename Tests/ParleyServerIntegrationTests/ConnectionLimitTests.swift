import Foundation
import Testing

/// Connections that stall or pile up cannot hold the server: a request head must arrive whole within its deadline of
/// its first byte (however slowly it trickles), a silent connection is closed after the read timeout, and connections over the
/// per-address cap are answered 503 with Retry-After — while a normal request still gets through.
@Suite struct ConnectionLimitTests {
    static func server(_ extra: [String]) async throws -> (ServerProcess, String) {
        let directory = NSTemporaryDirectory() + "parley-connections-\(UUID())"
        return (try await ServerProcess(arguments: ["--data-directory", directory] + extra), directory)
    }

    @Test func stalledAndSilentConnectionsAreClosed() async throws {
        // The read timeout spans at least three WebSocket pings: a 1 s ping makes it 3 s.
        let (server, directory) = try await Self.server([
            "--request-head-timeout-seconds", "1", "--read-timeout-seconds", "2", "--keep-alive-seconds", "1",
        ])
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }

        // Silent from the start: closed by the read timeout (3 s here), not by the head deadline, so a client that
        // connects ahead of its first request is not cut off.
        let silent = try RawConnection(port: server.port)
        let started = Date()
        #expect(await silent.read(for: 20).closed)
        let silentFor = Date().timeIntervalSince(started)
        // The bound leaves room for a machine busy with the other suites (a CI run once needed more than 8 s).
        #expect(silentFor > 2 && silentFor < 20, "closed after \(silentFor) s")

        // A head trickled a byte every 200 ms never completes: cut off at the deadline too.
        let slowloris = try RawConnection(port: server.port)
        let trickleStart = Date()
        var stillOpen = true
        for byte in "GET /health HTTP/1.1\r\nHost: localhost\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaa".map(String.init) where stillOpen {
            let sent = slowloris.send(byte)
            let closed = await slowloris.read(for: 0.2).closed
            stillOpen = sent && !closed
        }
        #expect(!stillOpen, "the trickled head was cut off")
        // Trickled whole, the head would take 74 × 200 ms ≈ 15 s; the 1 s deadline cuts it long before (the bound leaves
        // room for a machine busy with the other suites).
        #expect(Date().timeIntervalSince(trickleStart) < 13)

        // A complete request is answered; the kept-alive connection is closed once it idles past the read timeout.
        let keptAlive = try RawConnection(port: server.port)
        #expect(keptAlive.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n"))
        // Read in short steps until the whole answer is in (on a busy machine it may take more than a second), so the
        // read ends well before the connection's idle timeout.
        var answer = ""
        var closedEarly = false
        let asked = Date()
        while !answer.contains("\"ok\"") && !closedEarly && Date().timeIntervalSince(asked) < 10 {
            let (text, closed) = await keptAlive.read(for: 0.2)
            answer += text
            closedEarly = closed
        }
        #expect(answer.hasPrefix("HTTP/1.1 200") && !closedEarly, "\(answer)")
        #expect(await keptAlive.read(for: 20).closed)
    }

    /// `curl --http2` on http:// offers h2c: the server answers the request as HTTP/1.1 and closes the connection (its HTTP
    /// decoder reads nothing after an offer), so a request pipelined behind it is never left waiting on an open socket.
    @Test func anH2COfferIsAnsweredAsHTTP1AndTheConnectionCloses() async throws {
        let (server, directory) = try await Self.server([])
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        let connection = try RawConnection(port: server.port)
        #expect(
            connection.send(
                "GET /health HTTP/1.1\r\nHost: x\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                    + "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\n\r\n"))
        let answer = await connection.read(for: 5)
        #expect(answer.text.hasPrefix("HTTP/1.1 200"), "\(answer.text)")
        #expect(answer.closed, "\(answer.text)")
    }

    /// Bytes the HTTP decoder cannot parse get a 400 JSON error naming what was wrong, and the connection is closed at
    /// once (they got no answer and the connection stayed open until the read timeout); a WebSocket upgrade still
    /// works on the same server, so the responder leaves the pipeline with an upgrade.
    @Test func malformedRequestHeadsAre400AndTheConnectionCloses() async throws {
        let (server, directory) = try await Self.server([])
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        let heads: [(String, [UInt8])] = [
            ("a negative length", Array("POST /v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n".utf8)),
            ("a 23-digit length", Array("POST /v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Length: 12345678901234567890123\r\n\r\n".utf8)),
            (
                "a length with chunked",
                Array("POST /v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n".utf8)
            ),
            ("two lengths", Array("POST /v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello".utf8)),
            ("a request line HELLO", Array("HELLO\r\n\r\n".utf8)),
            ("HTTP/2's preface", Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [0, 0, 0, 4, 0, 0, 0, 0, 0]),
            ("a NUL in the path", Array("GET /hea".utf8) + [0] + Array("lth HTTP/1.1\r\nHost: x\r\n\r\n".utf8)),
            ("a space before a header's colon", Array("GET /health HTTP/1.1\r\nHost : x\r\n\r\n".utf8)),
        ]
        for (what, bytes) in heads {
            let connection = try RawConnection(port: server.port)
            #expect(connection.send(bytes: bytes), "\(what)")
            let (answer, closed) = await connection.read(for: 5)
            #expect(
                answer.hasPrefix("HTTP/1.1 400") && answer.contains(#""code":"bad_request""#)
                    && answer.contains("malformed HTTP request") && answer.lowercased().contains("connection: close"), "\(what): \(answer)")
            #expect(closed, "\(what): the connection stayed open")
        }
        // Garbage pipelined behind a complete request: the request is answered first, then the 400, then the close.
        let pipelined = try RawConnection(port: server.port)
        #expect(pipelined.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\nHELLO\r\n\r\n"))
        let (both, closed) = await pipelined.read(for: 5)
        #expect(both.hasPrefix("HTTP/1.1 200") && both.contains("HTTP/1.1 400") && closed, "\(both)")
        // The server still upgrades sockets (the socket route answers 401 without credentials, as documented).
        let upgrade = try RawConnection(port: server.port)
        #expect(
            upgrade.send(
                "GET /v1/websocket HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"))
        #expect(await upgrade.read(for: 3).text.hasPrefix("HTTP/1.1 401"))
    }

    /// A chunked upload (no `Content-Length`) that grows past the cap over a real connection: 413 `payload_too_large`,
    /// counted while streaming, not a 400 wrapping the error; one under the cap is stored.
    @Test func aChunkedUploadPastTheCapIs413() async throws {
        let (server, directory) = try await Self.server(["--attachment-max-bytes", "1000"])
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        let credential = try await ContractFuzzTests.register("chunky", at: server)
        func upload(_ chunks: [Int]) async throws -> String {
            let connection = try RawConnection(port: server.port)
            var request =
                "POST /v1/attachments HTTP/1.1\r\nHost: x\r\nAuthorization: Basic \(credential)\r\n"
                + "Content-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
            for size in chunks { request += String(size, radix: 16) + "\r\n" + String(repeating: "a", count: size) + "\r\n" }
            request += "0\r\n\r\n"
            connection.send(request)
            return await connection.read(for: 5).text
        }
        let over = try await upload([600, 600])
        #expect(over.hasPrefix("HTTP/1.1 413") && over.contains(#""code":"payload_too_large""#), "\(over)")
        let under = try await upload([600, 400])
        #expect(under.hasPrefix("HTTP/1.1 201"), "\(under)")

        // Cut off: a body shorter than its Content-Length when the client stops sending, and a bad chunk size after a
        // good chunk. Each is refused, and stores nothing (the one upload above is the only blob).
        let head =
            "POST /v1/attachments HTTP/1.1\r\nHost: x\r\nAuthorization: Basic \(credential)\r\nContent-Type: application/octet-stream\r\n"
        let short = try RawConnection(port: server.port)
        short.send(head + "Content-Length: 800\r\n\r\n" + String(repeating: "b", count: 300))
        short.finishSending()
        let shortAnswer = await short.read(for: 5).text
        #expect(!shortAnswer.contains(" 201 "), "a cut-off upload was stored: \(shortAnswer)")
        let badChunk = try RawConnection(port: server.port)
        badChunk.send(head + "Transfer-Encoding: chunked\r\n\r\n" + "64\r\n" + String(repeating: "c", count: 100) + "\r\nzz\r\n")
        let badChunkAnswer = await badChunk.read(for: 5).text
        #expect(badChunkAnswer.hasPrefix("HTTP/1.1 400") && !badChunkAnswer.contains(" 201 "), "\(badChunkAnswer)")
        try await Task.sleep(for: .milliseconds(300))
        let stored = try FileManager.default.contentsOfDirectory(atPath: directory + "/attachments").filter { $0 != "incoming" }
        #expect(stored.count == 1, "\(stored)")
    }

    @Test func connectionsOverThePerAddressCapAre503AndFreedCapacityIsUsable() async throws {
        let (server, directory) = try await Self.server(["--max-connections-per-address", "30"])
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        var held: [RawConnection] = []
        for _ in 0..<29 { held.append(try RawConnection(port: server.port)) }
        // The 30th (a normal client) still gets through while 29 stall.
        let normal = try RawConnection(port: server.port)
        #expect(normal.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n"))
        #expect(await normal.read(for: 2).text.hasPrefix("HTTP/1.1 200"))
        // The 31st is refused with a 503 that says when to come back.
        let refused = try RawConnection(port: server.port)
        let (text, closed) = await refused.read(for: 3)
        #expect(text.hasPrefix("HTTP/1.1 503") && text.contains("Retry-After: 10") && text.contains("too_many_connections"))
        #expect(closed)
        // Freed capacity is usable again, once the server has seen the closes (on a machine busy with the other
        // suites that can take more than a moment: asked again until a deadline, each refusal a 503).
        held.removeAll()
        let deadline = Date().addingTimeInterval(15)
        var answer = ""
        repeat {
            try await Task.sleep(for: .milliseconds(300))
            let later = try RawConnection(port: server.port)
            _ = later.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            answer = await later.read(for: 2).text
        } while !answer.hasPrefix("HTTP/1.1 200") && answer.hasPrefix("HTTP/1.1 503") && Date() < deadline
        #expect(answer.hasPrefix("HTTP/1.1 200"), "after the held connections closed: \(answer.prefix(80))")
    }

    /// The gRPC listener keeps the same bounds: connections over the per-address cap are closed at once, a silent one
    /// after the read timeout, and an admitted client gets the server's HTTP/2 preface and stays connected.
    @Test func theGRPCListenerCapsConnectionsPerAddressAndClosesSilentOnes() async throws {
        let (server, directory) = try await Self.server([
            "--grpc-port", "0", "--max-connections-per-address", "4", "--read-timeout-seconds", "15", "--keep-alive-seconds", "1",
        ])
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        let port = try #require(server.grpcPort)
        // The client preface and an empty SETTINGS frame; the server answers with its SETTINGS (frame type 4).
        let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [0, 0, 0, 4, 0, 0, 0, 0, 0]
        var held: [RawConnection] = []
        for _ in 0..<4 {
            let connection = try RawConnection(port: port)
            #expect(connection.send(bytes: preface))
            // Held well inside the idle time (10 s: two thirds of the read timeout) after which the server sends GOAWAY.
            let (bytes, closed) = await connection.readBytes(for: 0.5)
            #expect(bytes.count >= 9 && bytes[3] == 4 && !closed, "an admitted connection gets the server's SETTINGS")
            held.append(connection)
        }
        let refused = try RawConnection(port: port)
        _ = refused.send(bytes: preface)
        // Closed at once (the HTTP/2 handler may have flushed the server's preface first; no call is ever answered).
        #expect(await refused.readBytes(for: 3).closed, "the fifth connection from one address is closed")

        // A call opened and then left silent: the server sends no idle GOAWAY while a call is open, so it is the read
        // timeout (15 s after the client's last byte) that closes the connection, which frees its place.
        held.removeAll()
        let caller = try await Self.admitted(port: port)
        #expect(caller.send(bytes: preface + Self.openCall))
        let started = Date()
        #expect(await caller.read(for: 40).closed)
        let silentFor = Date().timeIntervalSince(started)
        #expect(silentFor > 13 && silentFor < 40, "closed after \(silentFor) s")
    }

    /// A HEADERS frame on stream 1 that opens a unary call and does not end the stream (HPACK: `:method POST`,
    /// `:scheme http` from the static table; `:path`, `:authority` and `content-type` as literals with indexed names;
    /// `te: trailers` as a literal with a new name).
    private static let openCall: [UInt8] = {
        func literal(_ prefix: [UInt8], _ value: String) -> [UInt8] { prefix + [UInt8(value.utf8.count)] + Array(value.utf8) }
        let block: [UInt8] =
            [0x83, 0x86]
            + literal([0x04], "/nova.signal.e2ee.v1.SignalE2EEService/GetPreKeyCount")
            + literal([0x01], "localhost")
            + literal([0x0F, 0x10], "application/grpc")
            + literal([0x00], "te") + [0x08] + Array("trailers".utf8)
        return [0, 0, UInt8(block.count), 1, 0x04, 0, 0, 0, 1] + block
    }()

    /// A raw connection to `port` once the server has seen earlier ones close (asked again until a deadline).
    private static func admitted(port: Int) async throws -> RawConnection {
        let deadline = Date().addingTimeInterval(15)
        while true {
            let connection = try RawConnection(port: port)
            let (_, closed) = await connection.readBytes(for: 0.5)
            if !closed || Date() > deadline { return connection }
            try await Task.sleep(for: .milliseconds(300))
        }
    }
}
