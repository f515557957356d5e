import Foundation
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import NIOCore
import ParleyAPI
import ParleyServer
import Testing

/// The socket opened with `?frames=binary`: Signal's WebSocketMessage framing. Envelopes arrive as the server's
/// `PUT /api/v1/message` requests and are acknowledged by `200` responses; sends and ephemeral events are the client's
/// requests, answered by id.
@Suite struct BinarySocketTests {
    /// A device's binary socket in a test.
    struct BinarySocket {
        var iterator: WebSocketInboundMessageStream.AsyncIterator
        let outbound: WebSocketOutboundWriter

        /// The next message; fails on a text frame.
        mutating func next() async throws -> BinarySocketMessage {
            guard let message = try await iterator.next() else { throw TestSocketError.closed }
            guard case .binary(let buffer) = message else { throw BinarySocketTestError.text }
            return try BinarySocketMessage(serializedBytes: Array(buffer.readableBytesView))
        }

        /// The next server request, failing on anything else.
        mutating func request() async throws -> BinarySocketRequest {
            guard case .request(let request) = try await next() else { throw BinarySocketTestError.notARequest }
            return request
        }

        /// The next response, skipping the server's requests.
        mutating func response() async throws -> BinarySocketResponse {
            while true {
                if case .response(let response) = try await next() { return response }
            }
        }

        func send(_ message: BinarySocketMessage) async throws {
            try await outbound.write(.binary(ByteBuffer(bytes: message.serializedBytes())))
        }

        func answer(_ request: BinarySocketRequest, status: UInt32 = 200) async throws {
            try await send(.response(BinarySocketResponse(id: request.id, status: status)))
        }
    }

    enum BinarySocketTestError: Error {
        case text
        case notARequest
    }

    static func withBinarySocket(
        _ client: some TestClientProtocol, _ member: Member,
        _ body: @escaping @Sendable (inout BinarySocket) async throws -> Void
    ) async throws {
        let configuration = WebSocketClientConfiguration(additionalHeaders: [.authorization: member.authorization])
        try await client.ws(APIRoutes.webSocket + "?" + APIRoutes.binaryFramesQuery, configuration: configuration) { inbound, outbound, _ in
            try await withTimeout(seconds: 30) {
                var socket = BinarySocket(iterator: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                try await body(&socket)
            }
        }
    }

    @Test func envelopesArriveAsRequestsAndA200AcknowledgesThem() async throws {
        try await ServerHarness().runLive { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let stored = try await RealtimeTests.send(3, from: alice, to: bob, client: client, tag: "stored")
            try await Self.withBinarySocket(client, bob) { socket in
                var requests: [BinarySocketRequest] = []
                for _ in 0..<3 { requests.append(try await socket.request()) }
                #expect(requests.allSatisfy { $0.verb == "PUT" && $0.path == APIRoutes.socketDeliveredMessage })
                #expect(Set(requests.map(\.id)).count == 3)
                let envelopes = try requests.map { try BinarySocketMessage.envelope($0.body ?? []) }
                #expect(envelopes.map(\.content) == stored)
                #expect(envelopes.allSatisfy { $0.sourceAccountId == alice.accountId && $0.sourceDeviceId == 1 && $0.type == 2 })
                let queueEmpty = try await socket.request()
                #expect(queueEmpty.path == APIRoutes.socketQueueEmpty)
                try await socket.answer(queueEmpty)
                // The first is stored by the client; the second refused (not a 2xx), then acknowledged after all; the third
                // only refused: it stays in the mailbox.
                try await socket.answer(requests[0])
                try await socket.answer(requests[1], status: 500)
                try await socket.answer(requests[2], status: 500)
                try await socket.answer(requests[1])
                // A live envelope after the acks: the acks were applied before it was pushed.
                let live = try await RealtimeTests.send(1, from: alice, to: bob, client: client, tag: "live")
                let pushed = try await socket.request()
                #expect(try BinarySocketMessage.envelope(pushed.body ?? []).content == live[0])
                try await socket.answer(pushed)
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(try await RealtimeTests.mailbox(of: bob, client: client).map(\.content) == [stored[2]])
        }
    }

    @Test func sendsAndEphemeralEventsAreAnsweredByID() async throws {
        try await ServerHarness().runLive { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let registration = try MessageTests.registrationId(of: bob)
            try await Self.withBinarySocket(client, alice) { socket in
                try await socket.answer(try await socket.request())  // queue empty
                let body = try JSONEncoder().encode(
                    SendMessagesRequest(
                        messages: [MessageTests.message(1, registrationId: registration, content: [7])], timestamp: 9))
                try await socket.send(
                    .request(
                        BinarySocketRequest(
                            id: 41, verb: "PUT", path: APIRoutes.messages(to: bob.accountId), headers: ["Idempotency-Key:binary-41"],
                            body: Array(body))))
                let sent = try await socket.response()
                #expect(sent.id == 41 && sent.status == 200)
                #expect(try JSONDecoder().decode(SendMessagesResponse.self, from: Data(sent.body ?? [])).serverTimestamp > 0)
                // A repeat with the same key is answered as the first and stores nothing again.
                try await socket.send(
                    .request(
                        BinarySocketRequest(
                            id: 42, verb: "PUT", path: APIRoutes.messages(to: bob.accountId), headers: ["Idempotency-Key:binary-41"],
                            body: Array(body))))
                #expect(try await socket.response().status == 200)
                // A wrong device list is the HTTP route's 409 with its JSON body.
                let wrong = try JSONEncoder().encode(
                    SendMessagesRequest(
                        messages: [MessageTests.message(5, registrationId: registration, content: [7])], timestamp: 10))
                try await socket.send(
                    .request(BinarySocketRequest(id: 43, verb: "PUT", path: APIRoutes.messages(to: bob.accountId), body: Array(wrong))))
                let mismatched = try await socket.response()
                #expect(mismatched.id == 43 && mismatched.status == 409)
                #expect(try JSONDecoder().decode(MismatchedDevicesResponse.self, from: Data(mismatched.body ?? [])).extraDevices == [5])
                // Ephemeral events are requests too, answered 200, or 400 when malformed.
                let event = try JSONEncoder().encode(
                    EphemeralEvent(destinationAccountId: bob.accountId, kind: "typing", content: "AQID", timestamp: 5))
                try await socket.send(
                    .request(BinarySocketRequest(id: 44, verb: "PUT", path: APIRoutes.socketEphemeral, body: Array(event))))
                #expect(try await socket.response() == BinarySocketResponse(id: 44, status: 200))
                try await socket.send(
                    .request(BinarySocketRequest(id: 45, verb: "PUT", path: APIRoutes.socketEphemeral, body: Array("{}".utf8))))
                let refused = try await socket.response()
                #expect(refused.id == 45 && refused.status == 400)
                // Too many headers: a 400 under the request's own id, as for a JSON request frame.
                try await socket.send(
                    .request(
                        BinarySocketRequest(
                            id: 47, verb: "PUT", path: APIRoutes.messages(to: bob.accountId), headers: (0..<33).map { "X-\($0):1" },
                            body: Array(body))))
                let crowded = try await socket.response()
                #expect(crowded.id == 47 && crowded.status == 400)
                // Another route is a 404 response; the socket stays open.
                try await socket.send(.request(BinarySocketRequest(id: 46, verb: "GET", path: "/v1/keys")))
                #expect(try await socket.response().status == 404)
            }
            let mailbox = try await RealtimeTests.mailbox(of: bob, client: client)
            #expect(mailbox.map(\.content) == [Data([7]).base64EncodedString()])
        }
    }

    @Test func malformedFramesAreRefusedAndTheSocketStaysOpen() async throws {
        try await ServerHarness().runLive { client in
            let alice = try await client.register("alice")
            try await Self.withBinarySocket(client, alice) { socket in
                try await socket.answer(try await socket.request())  // queue empty
                for garbage: [UInt8] in [[0xff, 0xff, 0xff], [0x08, 0x01], [0x08, 0x09, 0x12, 0x00]] {
                    try await socket.outbound.write(.binary(ByteBuffer(bytes: garbage)))
                    let refused = try await socket.response()
                    #expect(refused.id == 0 && refused.status == 400 && refused.message == "bad_frame")
                }
                // A JSON text frame is refused on a binary socket.
                try await socket.outbound.write(.text(#"{"type":"ack","guid":"x"}"#))
                #expect(try await socket.response().message == "bad_frame")
                // A response to a request the server never made is ignored; the socket still answers.
                try await socket.send(.response(BinarySocketResponse(id: 999, status: 200)))
                try await socket.send(.request(BinarySocketRequest(id: 7, verb: "GET", path: "/nowhere")))
                #expect(try await socket.response().id == 7)
            }
        }
    }
}
