import AsyncHTTPClient
import Foundation
import ParleyAPI
import ParleyTestSupport
import Testing

@testable import ParleyKit

/// Two `parley-server` processes on one PostgreSQL: a message accepted by one reaches a socket held by the other
/// (LISTEN/NOTIFY), in real time.
@Suite(.serialized) struct MultiProcessDeliveryTests {
    /// Two server processes on a fresh database, and a client for each; both stopped and the database dropped after.
    static func withTwoServers(
        _ body: (_ first: ServerProcess, _ viaFirst: ParleyServerClient, _ viaSecond: ParleyServerClient) async throws -> Void
    ) async throws {
        let database = try TestDatabase()
        try await database.create()
        let first = try await ServerProcess(arguments: [
            "--database-url", database.url, "--data-directory", NSTemporaryDirectory() + "parley-a-\(UUID())",
        ])
        let second = try await ServerProcess(arguments: [
            "--database-url", database.url, "--data-directory", NSTemporaryDirectory() + "parley-b-\(UUID())",
        ])
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { Task { try? await http.shutdown() } }
        defer {
            first.stop()
            second.stop()
        }
        try await body(
            first, ParleyServerClient(baseURL: first.baseURL, http: http), ParleyServerClient(baseURL: second.baseURL, http: http))
        first.stop()
        second.stop()
        try await database.drop()
    }

    @Test func twoServersOnOnePostgreSQLDeliverToEachOthersSockets() async throws {
        try await Self.withTwoServers { first, viaFirst, viaSecond in
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
                guard case .sent = outcome else {
                    Issue.record("send refused: \(outcome)")
                    return
                }
            }
            let deadline = Date().addingTimeInterval(10)
            while received.texts.count < 3 && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
            socket.cancel()
            #expect(received.texts == ["hello 0", "hello 1", "hello 2"])
            // An ack gets no answer: the server applies it moments later (with other sockets' acks, in one transaction).
            var left = try await viaSecond.mailbox(as: bob.credentials).messages
            let emptyBy = Date().addingTimeInterval(5)
            while !left.isEmpty && Date() < emptyBy {
                try await Task.sleep(for: .milliseconds(50))
                left = try await viaSecond.mailbox(as: bob.credentials).messages
            }
            #expect(left.isEmpty)
        }
    }

    /// Each process keeps accounts in memory for authentication and device lists: a change made through one process
    /// reaches the other's copy by notification, well before the copy would expire (10 s).
    @Test func aCredentialChangedThroughOneServerIsRefusedByTheOtherAtOnce() async throws {
        try await Self.withTwoServers { _, viaFirst, viaSecond in
            let alice = try await TestDevice.register(viaFirst, "alice")
            // The second process reads Alice's account (and keeps it) while authenticating her.
            for _ in 0..<3 { _ = try await viaSecond.devices(as: alice.credentials) }
            // And holds her socket, signed in with the old credential.
            let opened = AsyncStream<Void>.makeStream()
            let socket = Task {
                try await MessageSocket(baseURL: viaSecond.baseURL, device: alice.credentials).run { frame, _ in
                    if frame.type == .queueEmpty { opened.continuation.yield() }
                    return true
                }
            }
            for await _ in opened.stream { break }

            // A new credential through the first process (a restored PIN backup starts the device over).
            let newPassword = DeviceCredentials.makePassword()
            try await viaFirst.resetRegistration(alice.registrationId &+ 1, password: newPassword, as: alice.credentials)
            let renewed = DeviceCredentials(accountId: alice.credentials.accountId, deviceId: 1, password: newPassword)
            let changed = Date()
            var refusedAfter: TimeInterval?
            while Date().timeIntervalSince(changed) < 5 {
                do {
                    _ = try await viaSecond.devices(as: alice.credentials)
                } catch ParleyError.server(let failure) where failure.status == 401 {
                    refusedAfter = Date().timeIntervalSince(changed)
                    break
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            let seconds = try #require(refusedAfter, "the old credential still worked on the second process after 5 s")
            #expect(seconds < 2, "refused after \(seconds) s")
            #expect(try await viaSecond.devices(as: renewed).devices.count == 1)
            // The socket signed in with the old credential was closed by the second process too, as the first closes its own.
            let closedInTime = await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    _ = try? await socket.value
                    return true
                }
                group.addTask {
                    try? await Task.sleep(for: .seconds(5))
                    socket.cancel()  // else the first task never ends
                    return false
                }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
            socket.cancel()
            #expect(closedInTime, "the old credential's socket on the second process was still open 5 s after the change")
        }
    }
}
