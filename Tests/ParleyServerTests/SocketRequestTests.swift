import Foundation
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyServer
import Testing

/// Sends carried over the sender's WebSocket as request frames: the same send path as `PUT /v1/messages/{account}`,
/// answered with response frames of the same id.
@Suite struct SocketRequestTests {
    static func sendFrame(id: UInt64, to recipient: Member, _ messages: [OutgoingMessage], timestamp: UInt64 = 1) throws -> SocketFrame {
        let body = String(decoding: try JSONEncoder().encode(SendMessagesRequest(messages: messages, timestamp: timestamp)), as: UTF8.self)
        return .request(SocketRequest(id: id, verb: "PUT", path: APIRoutes.messages(to: recipient.accountId), body: body))
    }

    /// The next response frame (envelopes and other frames on the sender's own socket are skipped).
    static func response(_ socket: inout TestSocket) async throws -> SocketResponse {
        while true {
            guard let frame = try await socket.next() else { throw TestSocketError.closed }
            if frame.type == .response, let response = frame.response { return response }
        }
    }

    @Test func sendsOverTheSocketAreStoredDeliveredAndAnsweredByID() async throws {
        try await ServerHarness().runLive { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let bobRegistration = try MessageTests.registrationId(of: bob)
            try await client.withSocket(alice) { aliceSocket in
                _ = try await aliceSocket.expect(.queueEmpty)
                // Pipelined: three requests before any answer; each answered once with its own id.
                for id: UInt64 in [11, 12, 13] {
                    try await aliceSocket.send(
                        try Self.sendFrame(
                            id: id, to: bob, [MessageTests.message(1, registrationId: bobRegistration, content: [UInt8(id)])], timestamp: id
                        ))
                }
                var answered: [UInt64: SocketResponse] = [:]
                for _ in 0..<3 {
                    let response = try await Self.response(&aliceSocket)
                    answered[response.id] = response
                }
                #expect(answered.keys.sorted() == [11, 12, 13])
                for response in answered.values {
                    #expect(response.status == 200)
                    let body = try JSONDecoder().decode(SendMessagesResponse.self, from: Data((response.body ?? "").utf8))
                    #expect(body.serverTimestamp > 0)
                }
            }
            try await client.withSocket(bob) { bobSocket in
                let envelopes = try await bobSocket.envelopes(3)
                #expect(Set(envelopes.map(\.content)) == Set([11, 12, 13].map { Data([UInt8($0)]).base64EncodedString() }))
                #expect(envelopes.allSatisfy { $0.sourceAccountId == alice.accountId && $0.sourceDeviceId == 1 && $0.type == 2 })
                _ = try await bobSocket.expect(.queueEmpty)
                try await bobSocket.ack(envelopes)
            }
        }
    }

    @Test func refusalsComeBackAsTheHTTPRoutesStatusesAndTheSocketStaysOpen() async throws {
        var limits = ServerLimits()
        limits.rateLimits.send = TokenBucketPolicy(capacity: 4, refillPerSecond: 0.001)
        try await ServerHarness(limits: limits).runLive { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let bobRegistration = try MessageTests.registrationId(of: bob)
            try await client.withSocket(alice) { socket in
                _ = try await socket.expect(.queueEmpty)
                func answer(_ frame: SocketFrame) async throws -> (Int, String) {
                    try await socket.send(frame)
                    let response = try await Self.response(&socket)
                    return (response.status, response.body ?? "")
                }
                // 409: device 2 does not exist; 410: a wrong registration id; 400: an unknown message type.
                let (missing, missingBody) = try await answer(
                    try Self.sendFrame(id: 1, to: bob, [MessageTests.message(2, registrationId: 5)]))
                #expect(missing == 409)
                let mismatch = try JSONDecoder().decode(MismatchedDevicesResponse.self, from: Data(missingBody.utf8))
                #expect(mismatch.missingDevices == [1] && mismatch.extraDevices == [2])
                let (stale, staleBody) = try await answer(
                    try Self.sendFrame(
                        id: 2, to: bob,
                        [
                            MessageTests.message(1, registrationId: bobRegistration &+ 1)
                        ]))
                #expect(stale == 410)
                #expect(try JSONDecoder().decode(StaleDevicesResponse.self, from: Data(staleBody.utf8)).staleDevices == [1])
                let (badType, badTypeBody) = try await answer(
                    try Self.sendFrame(
                        id: 3, to: bob,
                        [
                            MessageTests.message(1, registrationId: bobRegistration, type: 9)
                        ]))
                #expect(badType == 400 && badTypeBody.contains("unknown message type"))
                // The send bucket (4) is spent by the three above and this one: the next is 429, as over HTTP.
                let (ok, _) = try await answer(
                    try Self.sendFrame(id: 4, to: bob, [MessageTests.message(1, registrationId: bobRegistration)]))
                #expect(ok == 200)
                let (limited, limitedBody) = try await answer(
                    try Self.sendFrame(
                        id: 5, to: bob,
                        [
                            MessageTests.message(1, registrationId: bobRegistration)
                        ]))
                #expect(limited == 429)
                #expect(try JSONDecoder().decode(APIErrorBody.self, from: Data(limitedBody.utf8)).code == "rate_limited")

                // Not a send: 404 / 405 answers; a malformed body: 400; none of them close the socket.
                let (unknownRoute, _) = try await answer(.request(SocketRequest(id: 6, verb: "GET", path: "/v1/devices", body: nil)))
                #expect(unknownRoute == 404)
                let (wrongVerb, _) = try await answer(
                    .request(
                        SocketRequest(
                            id: 7, verb: "DELETE", path: APIRoutes.messages(to: bob.accountId), body: nil)))
                #expect(wrongVerb == 405)
                let (malformed, malformedBody) = try await answer(
                    .request(
                        SocketRequest(
                            id: 8, verb: "PUT", path: APIRoutes.messages(to: bob.accountId), body: "{\"messages\": 3")))
                #expect(malformed == 400)
                #expect(try JSONDecoder().decode(APIErrorBody.self, from: Data(malformedBody.utf8)).code == "bad_request")
                let (unknownAccount, _) = try await answer(
                    .request(
                        SocketRequest(
                            id: 9, verb: "PUT", path: APIRoutes.messages(to: UUID().uuidString), body: "{\"messages\":[],\"timestamp\":1}"))
                )
                #expect(unknownAccount == 429, "the bucket is spent before the account is looked up")
                // A request frame without its request is an error frame.
                try await socket.send(SocketFrame(type: .request))
                _ = try await socket.expect(.error)
            }
            // Only the one accepted send was stored.
            try await client.withSocket(bob) { socket in
                let envelopes = try await socket.envelopes(1)
                _ = try await socket.expect(.queueEmpty)
                try await socket.ack(envelopes)
            }
        }
    }
}
