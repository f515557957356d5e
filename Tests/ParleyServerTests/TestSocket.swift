import Foundation
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import ParleyAPI

/// A device's WebSocket in a test: reads server frames, sends client frames.
struct TestSocket {
    var iterator: WebSocketInboundMessageStream.AsyncIterator
    let outbound: WebSocketOutboundWriter

    /// The next frame from the server, `nil` once the socket closed.
    mutating func next() async throws -> SocketFrame? {
        guard let message = try await iterator.next() else { return nil }
        guard case .text(let text) = message else { throw TestSocketError.unexpectedBinary }
        return try JSONDecoder().decode(SocketFrame.self, from: Data(text.utf8))
    }

    /// The next `count` envelopes, failing on any other frame.
    mutating func envelopes(_ count: Int) async throws -> [Envelope] {
        var envelopes: [Envelope] = []
        while envelopes.count < count {
            guard let frame = try await next() else { throw TestSocketError.closed }
            guard frame.type == .envelope, let envelope = frame.envelope else { throw TestSocketError.unexpected(frame) }
            envelopes.append(envelope)
        }
        return envelopes
    }

    /// Waits for a frame of `type`, failing on any other.
    mutating func expect(_ type: SocketFrameType) async throws -> SocketFrame {
        guard let frame = try await next() else { throw TestSocketError.closed }
        guard frame.type == type else { throw TestSocketError.unexpected(frame) }
        return frame
    }

    /// Sends a frame.
    func send(_ frame: SocketFrame) async throws {
        try await outbound.write(.text(String(decoding: try JSONEncoder().encode(frame), as: UTF8.self)))
    }

    /// Acknowledges envelopes.
    func ack(_ envelopes: [Envelope]) async throws {
        for envelope in envelopes { try await send(.ack(envelope.guid)) }
    }
}

enum TestSocketError: Error {
    case unexpectedBinary
    case closed
    case unexpected(SocketFrame)
    case timedOut
}

extension TestClientProtocol {
    /// Opens `member`'s socket, runs `body` with it (at most `seconds`), then closes it.
    func withSocket(
        _ member: Member, seconds: Double = 30, _ body: @escaping @Sendable (inout TestSocket) async throws -> Void
    ) async throws {
        let configuration = WebSocketClientConfiguration(additionalHeaders: [.authorization: member.authorization])
        try await ws(APIRoutes.webSocket, configuration: configuration) { inbound, outbound, _ in
            try await withTimeout(seconds: seconds) {
                var socket = TestSocket(iterator: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                try await body(&socket)
            }
        }
    }
}

/// Runs `body`, failing with ``TestSocketError/timedOut`` after `seconds`, so a missing frame fails the test instead of hanging it.
func withTimeout(seconds: Double, _ body: @escaping @Sendable () async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Bool.self) { group in
        group.addTask {
            try await body()
            return true
        }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return false
        }
        let finished = try await group.next() ?? false
        group.cancelAll()
        if !finished { throw TestSocketError.timedOut }
    }
}
