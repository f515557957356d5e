import AsyncHTTPClient
import Foundation
import ParleyAPI
import Synchronization
import Testing

@testable import ParleyKit

/// ParleyKit's `MessageSocket` against a real server, with binary frames (its default) and with JSON text frames: the
/// caller sees the same frames and acknowledges the same way, an acknowledgement repeated or for an envelope the socket
/// never carried is harmless, and what was not acknowledged comes again on the next connection.
@Suite struct MessageSocketFramingTests {
    /// The envelopes one connection receives until `queue_empty`, acknowledging those `acknowledge` picks (each twice,
    /// plus a made-up guid); then a send over the socket (one each connection), answered like HTTP; then the socket is
    /// closed.
    static func connect(
        _ server: ServerProcess, _ device: TestDevice, binaryFrames: Bool, sendingTo recipient: TestDevice,
        acknowledge: @escaping @Sendable (Envelope) -> Bool
    ) async throws -> ([Envelope], SendOutcome) {
        let received = Mutex<[Envelope]>([])
        let answered = AsyncStream<Result<SendOutcome, any Error>>.makeStream()
        let socket = Task {
            try await MessageSocket(baseURL: server.baseURL, device: device.credentials, binaryFrames: binaryFrames).run { frame, writer in
                switch frame.type {
                case .envelope:
                    guard let envelope = frame.envelope else { return true }
                    received.withLock { $0.append(envelope) }
                    if acknowledge(envelope) {
                        try await writer.acknowledge(envelope.guid)
                        try await writer.acknowledge(envelope.guid)
                        try await writer.acknowledge("00000000-0000-4000-8000-000000000000")
                    }
                case .queueEmpty:
                    // Not awaited here: the answer is read by the loop that calls this closure.
                    Task {
                        let request = SendMessagesRequest(
                            messages: [
                                OutgoingMessage(
                                    destinationDeviceId: 1, destinationRegistrationId: recipient.registrationId, type: 2,
                                    content: Data("reply".utf8).base64EncodedString())
                            ], timestamp: 99)
                        do {
                            answered.continuation.yield(.success(try await writer.send(request, to: recipient.credentials.accountId)))
                        } catch {
                            answered.continuation.yield(.failure(error))
                        }
                    }
                default:
                    break
                }
                return true
            }
        }
        defer { socket.cancel() }
        var outcome: Result<SendOutcome, any Error>?
        for await result in answered.stream {
            outcome = result
            break
        }
        // Acks before the send's answer were written before it; give the server a moment to apply them.
        try await Task.sleep(for: .milliseconds(300))
        guard let outcome else { throw TestSocketFramingError.noAnswer }
        return (received.withLock { $0 }, try outcome.get())
    }

    enum TestSocketFramingError: Error {
        case noAnswer
    }

    @Test(arguments: [true, false])
    func bothFramingsDeliverAcknowledgeAndSend(binaryFrames: Bool) async throws {
        let directory = NSTemporaryDirectory() + "parley-framing-\(UUID())"
        let server = try await ServerProcess(arguments: ["--data-directory", directory])
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { Task { try? await http.shutdown() } }
        let api = ParleyServerClient(baseURL: server.baseURL, http: http)
        let alice = try await TestDevice.register(api, "alice")
        let bob = try await TestDevice.register(api, "bob")
        for index in 0..<3 {
            let request = SendMessagesRequest(
                messages: [
                    OutgoingMessage(
                        destinationDeviceId: 1, destinationRegistrationId: bob.registrationId, type: 2,
                        content: Data("m\(index)".utf8).base64EncodedString())
                ], timestamp: UInt64(index + 1))
            _ = try await api.send(request, to: bob.credentials.accountId, as: alice.credentials)
        }
        let unacknowledged = Data("m1".utf8).base64EncodedString()
        let (first, sent) = try await Self.connect(server, bob, binaryFrames: binaryFrames, sendingTo: alice) {
            $0.content != unacknowledged
        }
        #expect(first.map(\.content) == ["m0", "m1", "m2"].map { Data($0.utf8).base64EncodedString() })
        guard case .sent = sent else {
            Issue.record("the socket send was answered \(sent)")
            return
        }
        let (again, _) = try await Self.connect(server, bob, binaryFrames: binaryFrames, sendingTo: alice) { _ in true }
        #expect(again.map(\.content) == [unacknowledged])
        #expect(try await api.mailbox(as: bob.credentials).messages.isEmpty)
        #expect(
            try await api.mailbox(as: alice.credentials).messages.map(\.content)
                == Array(repeating: Data("reply".utf8).base64EncodedString(), count: 2))
    }
}
