import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyServer
import Testing

/// The WebSocket channel against a real server on a loopback port.
@Suite struct RealtimeTests {
    /// Sends `count` opaque envelopes from `sender` to `recipient`'s device 1 over HTTP; returns their contents in order.
    @discardableResult
    static func send(
        _ count: Int, from sender: Member, to recipient: Member, client: some TestClientProtocol,
        tag: String = "m"
    ) async throws -> [String] {
        var contents: [String] = []
        for index in 0..<count {
            let content = Data("\(tag)\(index)".utf8).base64EncodedString()
            let request = SendMessagesRequest(
                messages: [
                    OutgoingMessage(
                        destinationDeviceId: 1, destinationRegistrationId: try MessageTests.registrationId(of: recipient),
                        type: 2, content: content)
                ], timestamp: UInt64(index + 1))
            let (status, body) = try await client.call(
                .put, APIRoutes.messages(to: recipient.accountId), headers: sender.headers, json: request)
            guard status == .ok else { throw HarnessError.unexpected(status, body) }
            contents.append(content)
        }
        return contents
    }

    static func mailbox(of member: Member, client: some TestClientProtocol) async throws -> [Envelope] {
        let (_, body) = try await client.call(.get, APIRoutes.mailbox, headers: member.headers)
        return try JSONDecoder().decode(EnvelopeListResponse.self, from: body).messages
    }

    @Test func connectingDrainsTheMailboxThenPushesNewEnvelopes() async throws {
        try await ServerHarness().runLive { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let stored = try await Self.send(3, from: alice, to: bob, client: client, tag: "stored")
            try await client.withSocket(bob) { socket in
                let drained = try await socket.envelopes(3)
                #expect(drained.map(\.content) == stored)
                #expect(drained.allSatisfy { $0.sourceAccountId == alice.accountId && $0.sourceDeviceId == 1 })
                _ = try await socket.expect(.queueEmpty)
                try await socket.ack(drained)
                let live = try await Self.send(2, from: alice, to: bob, client: client, tag: "live")
                let pushed = try await socket.envelopes(2)
                #expect(pushed.map(\.content) == live)
                try await socket.ack(pushed)
                // An ack is processed before the next frame the server sends: an ephemeral round trip proves the acks landed.
                try await socket.send(.event(EphemeralEvent(destinationAccountId: bob.accountId, kind: "sync", content: "", timestamp: 1)))
            }
            try await Task.sleep(for: .milliseconds(200))
            #expect(try await Self.mailbox(of: bob, client: client).isEmpty)
        }
    }

    @Test func unacknowledgedEnvelopesAreDeliveredAgainOnReconnect() async throws {
        try await ServerHarness().runLive { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let sent = try await Self.send(2, from: alice, to: bob, client: client)
            try await client.withSocket(bob) { socket in
                let first = try await socket.envelopes(2)
                _ = try await socket.expect(.queueEmpty)
                try await socket.ack([first[0]])  // the second is never acknowledged
            }
            try await client.withSocket(bob) { socket in
                let again = try await socket.envelopes(1)
                #expect(again.map(\.content) == [sent[1]])
                _ = try await socket.expect(.queueEmpty)
                try await socket.ack(again)
            }
            try await client.withSocket(bob) { socket in
                _ = try await socket.expect(.queueEmpty)
            }
        }
    }

    @Test func deliveryBeyondTheWindowKeepsOrderAndDeliversEachEnvelopeOnce() async throws {
        var limits = ServerLimits()
        limits.socketWindow = 8
        try await ServerHarness(limits: limits).runLive { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let stored = try await Self.send(20, from: alice, to: bob, client: client, tag: "s")
            try await client.withSocket(bob) { socket in
                var received: [Envelope] = []
                var sawQueueEmpty = false
                // While acknowledging as it reads, the client gets all 20 stored, queue_empty, then 20 live ones.
                let live = Task { try await Self.send(20, from: alice, to: bob, client: client, tag: "l") }
                while received.count < 40 {
                    guard let frame = try await socket.next() else { break }
                    switch frame.type {
                    case .envelope:
                        received.append(frame.envelope!)
                        try await socket.ack([frame.envelope!])
                    case .queueEmpty:
                        #expect(!sawQueueEmpty)
                        sawQueueEmpty = true
                    default:
                        Issue.record("unexpected frame \(frame)")
                    }
                }
                let liveContents = try await live.value
                #expect(Set(received.map(\.guid)).count == 40)
                #expect(Array(received.map(\.content).prefix(20)) == stored)
                #expect(received.map(\.content).filter { liveContents.contains($0) } == liveContents)
                #expect(sawQueueEmpty)
            }
        }
    }

    @Test func liveEnvelopesPastTheSocketsByteBudgetAreReadBackFromTheStoreInOrder() async throws {
        var limits = ServerLimits()
        limits.socketQueueBytes = 1  // every envelope is past it: none is queued live, each is read back from the store
        try await ServerHarness(limits: limits).runLive { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            try await client.withSocket(bob) { socket in
                _ = try await socket.expect(.queueEmpty)
                let live = try await Self.send(10, from: alice, to: bob, client: client, tag: "live")
                var received: [Envelope] = []
                while received.count < 10 {
                    let envelopes = try await socket.envelopes(1)
                    received += envelopes
                    try await socket.ack(envelopes)
                }
                #expect(received.map(\.content) == live)
            }
        }
    }

    @Test func ephemeralEventsReachConnectedDevicesAndAreNeverStored() async throws {
        try await ServerHarness().runLive { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let bobListening = AsyncStream<Void>.makeStream()
            let received = Task {
                try await client.withSocket(bob) { socket in
                    _ = try await socket.expect(.queueEmpty)
                    bobListening.continuation.yield()
                    let frame = try await socket.expect(.ephemeral)
                    let event = try #require(frame.ephemeral)
                    #expect(event.kind == "typing" && event.content == "AQID")
                    #expect(event.sourceAccountId == alice.accountId && event.sourceDeviceId == 1)
                }
            }
            for await _ in bobListening.stream { break }
            try await client.withSocket(alice) { socket in
                _ = try await socket.expect(.queueEmpty)
                try await socket.send(
                    .event(EphemeralEvent(destinationAccountId: bob.accountId, kind: "typing", content: "AQID", timestamp: 5)))
                // No kind; one character of 100,000 combining marks (the bound is bytes, not characters); a destination
                // of 10,000 bytes: each refused, nothing relayed.
                let marks = "a" + String(repeating: "\u{0301}", count: 100_000)
                for bad in [
                    EphemeralEvent(destinationAccountId: bob.accountId, kind: "", content: "AQID", timestamp: 5),
                    EphemeralEvent(destinationAccountId: bob.accountId, kind: marks, content: "AQID", timestamp: 5),
                    EphemeralEvent(
                        destinationAccountId: String(repeating: "b", count: 10_000), kind: "typing", content: "AQID", timestamp: 5),
                ] {
                    try await socket.send(.event(bad))
                    let refusal = try await socket.expect(.error)
                    #expect(refusal.error?.code == "bad_request")
                }
                try await socket.send(SocketFrame(type: .ack))
                #expect(try await socket.expect(.error).error?.code == "bad_frame")
            }
            try await received.value
            #expect(try await Self.mailbox(of: bob, client: client).isEmpty)
        }
    }

    @Test func aNewConnectionOfTheSameDeviceDisplacesTheOld() async throws {
        try await ServerHarness().runLive { client in
            _ = try await client.register("alice")
            let bob = try await client.register("bob")
            let firstReady = AsyncStream<Void>.makeStream()
            let first = Task {
                try await client.withSocket(bob) { socket in
                    _ = try await socket.expect(.queueEmpty)
                    firstReady.continuation.yield()
                    #expect(try await socket.next() == nil)  // closed by the server
                }
            }
            for await _ in firstReady.stream { break }
            try await client.withSocket(bob) { socket in
                _ = try await socket.expect(.queueEmpty)
            }
            try await first.value
        }
    }

    @Test func anUpgradeOfferAnywhereElseIsServedAsAPlainRequest() async throws {
        try await ServerHarness().runLive { client in
            // curl --http2 on http:// offers h2c; a WebSocket upgrade of another route; one of the socket without credentials.
            let h2c: HTTPFields = [
                .upgrade: "h2c", .connection: "Upgrade, HTTP2-Settings", HTTPField.Name("HTTP2-Settings")!: "AAMAAABkAARAAAAAAAIAAAAA",
            ]
            let health = try await client.execute(uri: APIRoutes.health, method: .get, headers: h2c)
            #expect(health.status == .ok)
            let webSocketOffer: HTTPFields = [
                .upgrade: "websocket", .connection: "Upgrade", .secWebSocketKey: "dGhlIHNhbXBsZSBub25jZQ==",
                .secWebSocketVersion: "13",
            ]
            #expect(try await client.execute(uri: APIRoutes.health, method: .get, headers: webSocketOffer).status == .ok)
            let socket = try await client.execute(uri: APIRoutes.webSocket, method: .get, headers: webSocketOffer)
            #expect(socket.status == .unauthorized)
            #expect(try JSONDecoder().decode(APIErrorBody.self, from: Data(buffer: socket.body)).code == "unauthorized")
            // Wrong credentials: the same 401 JSON, not the WebSocket library's empty 400.
            var wrongCredentials = webSocketOffer
            wrongCredentials[.authorization] = "Basic " + Data("\(UUID().uuidString.lowercased()).1:wrong".utf8).base64EncodedString()
            let refused = try await client.execute(uri: APIRoutes.webSocket, method: .get, headers: wrongCredentials)
            #expect(refused.status == .unauthorized)
            #expect(try JSONDecoder().decode(APIErrorBody.self, from: Data(buffer: refused.body)).code == "unauthorized")
        }
    }

    @Test func aKnownPathWithAnotherMethodIs405AndAnUnroutedOneStays404() async throws {
        try await ServerHarness().run { client in
            let trace = try await client.execute(uri: APIRoutes.health, method: .init("TRACE")!, headers: [:])
            #expect(trace.status == .methodNotAllowed)
            #expect(trace.headers[.allow] == "GET")
            let (unrouted, _) = try await client.call(.get, "/v1/accounts/username")
            #expect(unrouted == .notFound)
        }
    }

    @Test func theUpgradeNeedsDeviceCredentials() async throws {
        try await ServerHarness().run { client in
            let bob = try await client.register("bob")
            let (status, body) = try await client.call(.get, APIRoutes.webSocket)
            #expect(status == .unauthorized)
            #expect(try JSONDecoder().decode(APIErrorBody.self, from: body).code == "unauthorized")
            let (plain, plainBody) = try await client.call(.get, APIRoutes.webSocket, headers: bob.headers)
            #expect(plain == .badRequest)
            #expect(try JSONDecoder().decode(APIErrorBody.self, from: plainBody).code == "bad_request")
        }
    }
}
