import AsyncHTTPClient
import Foundation
import ParleyAPI
import ParleyTestSupport
import Synchronization
import Testing

@testable import ParleyKit

/// `kill -9` while messages are being sent, over HTTP or as request frames on the sender's socket: after a restart,
/// every message that got a 200 (HTTP status or response frame) is delivered exactly once to each recipient device.
@Suite(.serialized) struct CrashRecoveryTests {
    enum Backend: String, CaseIterable, Sendable {
        case sqlite, postgres
    }

    enum Transport: String, CaseIterable, Sendable {
        case http, socket
    }

    /// The sender's socket writer, once its socket is open.
    final class WriterBox: Sendable {
        let writer = Mutex<MessageSocket.Writer?>(nil)
    }

    @Test(arguments: Backend.allCases, Transport.allCases)
    func everyAcceptedMessageSurvivesKillNine(backend: Backend, transport: Transport) async throws {
        let directory = NSTemporaryDirectory() + "parley-crash-\(UUID())"
        var arguments = ["--data-directory", directory, "--rate-limit-scale", "1000"]
        let database: TestDatabase?
        if backend == .postgres {
            let created = try TestDatabase()
            try await created.create()
            arguments += ["--database-url", created.url]
            database = created
        } else {
            database = nil
        }
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { Task { try? await http.shutdown() } }
        defer {
            try? FileManager.default.removeItem(atPath: directory)
        }

        let server = try await ServerProcess(arguments: arguments)
        let api = ParleyServerClient(baseURL: server.baseURL, http: http)
        let alice = try await TestDevice.register(api, "alice")
        let bobPhone = try await TestDevice.register(api, "bob")
        let bobLaptop = try await bobPhone.link(api)

        // Over the socket: alice's own socket, open before the first send.
        let box = WriterBox()
        let aliceSocket = Task {
            guard transport == .socket else { return }
            try? await MessageSocket(baseURL: server.baseURL, device: alice.credentials).run { frame, writer in
                if frame.type == .queueEmpty { box.writer.withLock { $0 = writer } }
                return true
            }
        }
        defer { aliceSocket.cancel() }
        while transport == .socket && box.writer.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(5)) }
        let writer = box.writer.withLock { $0 }

        // Four senders in parallel until the server dies under them.
        let accepted = ReceivedTexts()
        let senders = Task {
            await withTaskGroup(of: Void.self) { group in
                for lane in 0..<4 {
                    group.addTask {
                        var index = 0
                        while !Task.isCancelled {
                            let text = "lane \(lane) message \(index)"
                            index += 1
                            let outcome: SendOutcome?
                            if let writer {
                                outcome = try? await writer.send(
                                    textRequest(text, to: [bobPhone, bobLaptop]), to: bobPhone.credentials.accountId)
                            } else {
                                outcome = try? await sendText(text, from: alice, to: [bobPhone, bobLaptop], api: api)
                            }
                            guard let outcome else { return }
                            if case .sent = outcome { accepted.append(text) }
                        }
                    }
                }
            }
        }
        while accepted.texts.count < 200 { try await Task.sleep(for: .milliseconds(5)) }
        server.kill()
        await senders.value
        let acknowledged = accepted.texts

        let restarted = try await ServerProcess(arguments: arguments)
        let afterRestart = ParleyServerClient(baseURL: restarted.baseURL, http: http)
        _ = afterRestart
        for device in [bobPhone, bobLaptop] {
            let received = try await drain(device, baseURL: restarted.baseURL)
            let counts = Dictionary(received.map { ($0, 1) }, uniquingKeysWith: +)
            #expect(counts.values.allSatisfy { $0 == 1 }, "device \(device.credentials.deviceId) got duplicates")
            let missing = acknowledged.filter { counts[$0] == nil }
            #expect(
                missing.isEmpty, "device \(device.credentials.deviceId) lost \(missing.count) of \(acknowledged.count) accepted messages")
            // Accepted messages arrive in the order the server accepted them, per sender lane.
            for lane in 0..<4 {
                let prefix = "lane \(lane) "
                let order = received.filter { $0.hasPrefix(prefix) }.compactMap { Int($0.split(separator: " ").last!) }
                #expect(order == order.sorted())
            }
        }
        restarted.stop()
        try await database?.drop()
    }
}
