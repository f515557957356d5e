import AsyncHTTPClient
import Foundation
import Testing

@testable import ParleyKit

/// RFC 6455 on the device socket, byte by byte from a raw TCP connection: a client frame without a mask is a protocol
/// error (1002), a text message that is not UTF-8 is 1007, a message fragmented past the size limit is 1009 — each a
/// close frame with that code, then the connection closed.
@Suite struct WebSocketProtocolTests {
    /// A raw connection upgraded to the device socket with `credentials` (base64 `account.device:password`).
    static func upgraded(_ server: ServerProcess, credentials: String) async throws -> RawConnection {
        let connection = try RawConnection(port: server.port)
        connection.send(
            "GET /v1/websocket HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Authorization: Basic \(credentials)\r\n\r\n")
        var head: [UInt8] = []
        let deadline = Date().addingTimeInterval(5)
        while !String(decoding: head, as: UTF8.self).contains("\r\n\r\n"), Date() < deadline {
            let (bytes, closed) = await connection.readBytes(for: 0.2)
            head += bytes
            if closed { break }
        }
        #expect(String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 101"), "\(String(decoding: head.prefix(200), as: UTF8.self))")
        return connection
    }

    /// A client frame: masked (with a fixed key) unless `masked` is false.
    static func frame(opcode: UInt8, fin: Bool = true, _ payload: [UInt8], masked: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        switch payload.count {
        case 0..<126: bytes.append(maskBit | UInt8(payload.count))
        case 126..<65_536: bytes += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: bytes += [maskBit | 127] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(payload.count) >> ($0 * 8)) }
        }
        guard masked else { return bytes + payload }
        let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        return bytes + key + payload.enumerated().map { $1 ^ key[$0 % 4] }
    }

    /// The status code of the first close frame among the server's frames in `bytes`, if there is one.
    static func closeCode(in bytes: [UInt8]) -> UInt16? {
        var index = 0
        while index + 2 <= bytes.count {
            let opcode = bytes[index] & 0x0F
            var length = Int(bytes[index + 1] & 0x7F)
            var offset = index + 2
            if length == 126, offset + 2 <= bytes.count {
                length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
                offset += 2
            } else if length == 127, offset + 8 <= bytes.count {
                length = bytes[offset..<offset + 8].reduce(0) { $0 << 8 | Int($1) }
                offset += 8
            }
            if opcode == 0x8 {
                guard length >= 2, offset + 2 <= bytes.count else { return nil }
                return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
            }
            index = offset + length
        }
        return nil
    }

    /// Everything the server sends until it closes the connection (at most `seconds`).
    static func untilClosed(_ connection: RawConnection, seconds: Double = 10) async -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let (bytes, closed) = await connection.readBytes(for: 0.5)
            received += bytes
            if closed { return (received, true) }
        }
        return (received, false)
    }

    /// The opcodes of the whole server frames at the start of `buffer`, which loses them (a partial frame stays).
    static func takeFrames(_ buffer: inout [UInt8]) -> [UInt8] {
        var opcodes: [UInt8] = []
        while buffer.count >= 2 {
            var length = Int(buffer[1] & 0x7F)
            var offset = 2
            if length == 126 {
                guard buffer.count >= 4 else { break }
                length = Int(buffer[2]) << 8 | Int(buffer[3])
                offset = 4
            } else if length == 127 {
                guard buffer.count >= 10 else { break }
                length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
                offset = 10
            }
            guard buffer.count >= offset + length else { break }
            opcodes.append(buffer[0] & 0x0F)
            buffer.removeFirst(offset + length)
        }
        return opcodes
    }

    /// Keep-alive from the server's event loop: an idle socket is pinged every interval. A client that answers (here
    /// ParleyKit's socket, whose WebSocket library answers pings by itself, and which sends nothing else) stays open
    /// well past the read timeout; a raw connection that answers nothing is closed by it.
    @Test func idleSocketsArePingedAndSilentOnesClosed() async throws {
        let directory = NSTemporaryDirectory() + "parley-websocket-\(UUID())"
        // A 1 s ping and an 8 s read timeout (room for a machine busy with the other suites to answer in time).
        let server = try await ServerProcess(arguments: [
            "--data-directory", directory, "--keep-alive-seconds", "1", "--read-timeout-seconds", "8",
        ])
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { Task { try? await http.shutdown() } }
        let api = ParleyServerClient(baseURL: server.baseURL, http: http)
        let answering = try await TestDevice.register(api, "pinged")
        let quiet = try await ContractFuzzTests.register("silent", at: server)

        let opened = AsyncStream<Void>.makeStream()
        let answeringSocket = Task {
            try await MessageSocket(baseURL: server.baseURL, device: answering.credentials).run { frame, _ in
                if frame.type == .queueEmpty { opened.continuation.yield() }
                return true
            }
        }
        for await _ in opened.stream { break }
        // The raw connection: its bytes are read (pings included) but never answered.
        // Timed from the upgrade request, the last bytes the server reads from it (on a busy machine the 101 can take
        // seconds to arrive; the read timeout runs from the request, not from the answer).
        let silentSince = Date()
        let silent = try await Self.upgraded(server, credentials: quiet)
        var received: [UInt8] = []
        var silentClosed = false
        while Date().timeIntervalSince(silentSince) < 20, !silentClosed {
            let (bytes, closed) = await silent.readBytes(for: 0.5)
            received += bytes
            silentClosed = closed
        }
        let silentFor = Date().timeIntervalSince(silentSince)
        let pings = Self.takeFrames(&received).filter { $0 == 0x9 }.count
        #expect(
            silentClosed && silentFor > 7 && silentFor < 19, "a socket that answers nothing: closed \(silentClosed) after \(silentFor) s")
        #expect(pings >= 4, "the silent connection saw \(pings) pings in \(silentFor) s at one a second")
        // Past the read timeout, the socket that answers pings (and sends nothing else) is still open.
        let socketEnded = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                _ = try? await answeringSocket.value
                return true
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(100))
                return false
            }
            let first = await group.next() ?? true
            answeringSocket.cancel()
            return first
        }
        #expect(!socketEnded, "the socket that answers pings was closed")
    }

    /// A socket the server closed (here: displaced by a newer connection of its device) acts on nothing the client sends
    /// afterwards: a request frame sent after the close frame gets no answer, and the connection ends.
    @Test func aDisplacedSocketActsOnNothingMore() async throws {
        let directory = NSTemporaryDirectory() + "parley-websocket-\(UUID())"
        let server = try await ServerProcess(arguments: ["--data-directory", directory])
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        let credentials = try await ContractFuzzTests.register("twice", at: server)
        let first = try await Self.upgraded(server, credentials: credentials)
        _ = await first.readBytes(for: 0.5)  // its queue-empty frame
        let second = try await Self.upgraded(server, credentials: credentials)
        defer { _ = second }
        var received = await first.readBytes(for: 2).bytes
        #expect(Self.closeCode(in: received) == 1008, "\(received)")
        // Ignoring the close, the first connection asks for its devices: no answer comes.
        first.send(bytes: Self.frame(opcode: 0x1, Array(#"{"type":"request","request":{"id":7,"verb":"GET","path":"/v1/devices"}}"#.utf8)))
        let after = await Self.untilClosed(first, seconds: 15)
        received = after.bytes
        #expect(!String(decoding: received, as: UTF8.self).contains("\"response\""), "\(String(decoding: received, as: UTF8.self))")
        #expect(after.closed, "the displaced connection stayed open")
    }

    @Test func protocolViolationsCloseWithTheirCodes() async throws {
        let directory = NSTemporaryDirectory() + "parley-websocket-\(UUID())"
        let server = try await ServerProcess(arguments: ["--data-directory", directory])
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        let credentials = try await ContractFuzzTests.register("framer", at: server)

        // A well-formed masked frame is answered (a malformed request frame gets an error frame) and the socket stays.
        let good = try await Self.upgraded(server, credentials: credentials)
        good.send(bytes: Self.frame(opcode: 0x1, Array(#"{"type":"nonsense"}"#.utf8)))
        let answered = await good.readBytes(for: 1)
        #expect(!answered.closed && Self.closeCode(in: answered.bytes) == nil)

        let cases: [(String, [UInt8], UInt16)] = [
            ("an unmasked frame", Self.frame(opcode: 0x1, Array(#"{"type":"ack","guid":"x"}"#.utf8), masked: false), 1002),
            ("text that is not UTF-8", Self.frame(opcode: 0x1, [0x7B, 0xC3, 0x28, 0x7D]), 1007),
            (
                "a message fragmented past the limit",
                Self.frame(opcode: 0x1, fin: false, [UInt8](repeating: 0x20, count: 600_000))
                    + Self.frame(opcode: 0x0, fin: false, [UInt8](repeating: 0x20, count: 600_000)), 1009
            ),
        ]
        for (name, bytes, code) in cases {
            let connection = try await Self.upgraded(server, credentials: credentials)
            connection.send(bytes: bytes)
            let (received, closed) = await Self.untilClosed(connection)
            #expect(Self.closeCode(in: received) == code, "\(name)")
            #expect(closed, "\(name): the connection is closed")
        }
        // The server still serves.
        let after = try await Self.upgraded(server, credentials: credentials)
        let afterRead = await after.readBytes(for: 0.5)
        #expect(!afterRead.closed)
    }
}
