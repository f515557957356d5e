import AsyncHTTPClient
import Foundation
import ParleyTestSupport
import ParleyAPI
import ParleyKit
import Testing

/// Two `parley-server` processes on one PostgreSQL: a message accepted by one reaches a socket held by the other
/// (LISTEN/NOTIFY), in real time.
@Suite(.serialized) struct MultiProcessDeliveryTests {
    @Test func twoServersOnOnePostgreSQLDeliverToEachOthersSockets() async throws {
        let database = try TestDatabase()
        try await database.create()
        let first = try await ServerProcess(arguments: ["--database-url", database.url, "--data-directory", NSTemporaryDirectory() + "parley-a-\(UUID())"])
        let second = try await ServerProcess(arguments: ["--database-url", database.url, "--data-directory", NSTemporaryDirectory() + "parley-b-\(UUID())"])
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { Task { try? await http.shutdown() } }
        defer {
            first.stop()
            second.stop()
        }
        let viaFirst = ParleyServerClient(baseURL: first.baseURL, http: http)
        let viaSecond = ParleyServerClient(baseURL: second.baseURL, http: http)
        let alice = try await TestDevice.register(viaSecond, "alice")
        let bob = try await TestDevice.register(viaFirst, "bob")

        let received = ReceivedTexts()
        let connected = AsyncStream<Void>.makeStream()
        let socket = Task {
            try await MessageSocket(baseURL: first.baseURL, device: bob.credentials).run { frame, writer in
                switch frame.type {
                case .queueEmpty:
                    connected.continuation.yield()
                case .envelope:
                    received.append(String(decoding: Data(base64Encoded: frame.envelope!.content)!, as: UTF8.self))
                    try await writer.acknowledge(frame.envelope!.guid)
                default:
                    break
                }
                return received.texts.count < 3
            }
        }
        for await _ in connected.stream { break }
        for index in 0..<3 {
            let outcome = try await sendText("hello \(index)", from: alice, to: [bob], api: viaSecond)
            guard case .sent = outcome else { Issue.record("send refused: \(outcome)"); return }
        }
        let deadline = Date().addingTimeInterval(10)
        while received.texts.count < 3 && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        socket.cancel()
        #expect(received.texts == ["hello 0", "hello 1", "hello 2"])
        #expect(try await viaSecond.mailbox(as: bob.credentials).messages.isEmpty)
        first.stop()
        second.stop()
        try await database.drop()
    }
}
