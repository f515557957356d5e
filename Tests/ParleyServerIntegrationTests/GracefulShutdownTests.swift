import AsyncHTTPClient
import Foundation
import HummingbirdWSClient
import Logging
import ParleyAPI
import Testing

@testable import ParleyKit

/// SIGTERM: the server closes open sockets with a normal close frame and exits cleanly; stored messages stay.
@Suite struct GracefulShutdownTests {
    @Test func sigtermClosesSocketsCleanlyAndExitsWithoutLosingMail() async throws {
        let directory = NSTemporaryDirectory() + "parley-shutdown-\(UUID())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { Task { try? await http.shutdown() } }
        let server = try await ServerProcess(arguments: ["--data-directory", directory])
        let api = ParleyServerClient(baseURL: server.baseURL, http: http)
        let alice = try await TestDevice.register(api, "alice")
        let bob = try await TestDevice.register(api, "bob")
        _ = try await sendText("kept", from: alice, to: [bob], api: api)

        let connected = AsyncStream<Void>.makeStream()
        let configuration = WebSocketClientConfiguration(additionalHeaders: [.authorization: alice.credentials.authorization])
        let socket = Task {
            try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(server.port)\(APIRoutes.webSocket)", configuration: configuration, logger: Logger(label: "test")
            ) { inbound, _, _ in
                for try await _ in inbound.messages(maxSize: 1 << 20) { connected.continuation.yield() }
            }
        }
        for await _ in connected.stream { break }
        server.stop()
        let close = try await socket.value
        #expect(close?.closeCode == .normalClosure)
        #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0)

        let restarted = try await ServerProcess(arguments: ["--data-directory", directory])
        #expect(try await drain(bob, baseURL: restarted.baseURL) == ["kept"])
        restarted.stop()
    }
}
