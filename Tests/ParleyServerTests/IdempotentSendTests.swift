import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyServer
import Testing

/// Sends with an `Idempotency-Key`: a client that lost the answer and sends again gets the first answer, and the
/// recipient gets the message once, whichever door (HTTP or socket request frame) each attempt took.
@Suite struct IdempotentSendTests {
    static func headers(_ member: Member, key: String) -> HTTPFields {
        var headers = member.headers
        headers[HTTPField.Name(APIRoutes.idempotencyKeyHeader)!] = key
        return headers
    }

    static func mailbox(_ member: Member, _ client: any TestClientProtocol) async throws -> [Envelope] {
        let (_, body) = try await client.call(.get, APIRoutes.mailbox, headers: member.headers)
        return try JSONDecoder().decode(EnvelopeListResponse.self, from: body).messages
    }

    @Test func aRepeatGetsTheFirstAnswerAndStoresNothing() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let registration = try MessageTests.registrationId(of: bob)
            let first = SendMessagesRequest(messages: [MessageTests.message(1, registrationId: registration, content: [1])], timestamp: 42)
            // The retry was encrypted again: other bytes, the same message (recipient and timestamp).
            let retry = SendMessagesRequest(messages: [MessageTests.message(1, registrationId: registration, content: [2])], timestamp: 42)
            let (status, body) = try await client.call(
                .put, APIRoutes.messages(to: bob.accountId), headers: Self.headers(alice, key: "k-1"), json: first)
            #expect(status == .ok)
            let answer = try JSONDecoder().decode(SendMessagesResponse.self, from: body)
            for quoted in ["k-1", "\"k-1\""] {
                let (again, againBody) = try await client.call(
                    .put, APIRoutes.messages(to: bob.accountId),
                    headers: Self.headers(alice, key: quoted), json: retry)
                #expect(again == .ok)
                #expect(try JSONDecoder().decode(SendMessagesResponse.self, from: againBody) == answer, "the first answer, again")
            }
            let stored = try await Self.mailbox(bob, client)
            #expect(stored.count == 1 && stored.first?.content == Data([1]).base64EncodedString())

            // The same key for another message is refused; another key is another message; no key, as before.
            let other = SendMessagesRequest(messages: first.messages, timestamp: 43)
            let (reused, reusedBody) = try await client.call(
                .put, APIRoutes.messages(to: bob.accountId), headers: Self.headers(alice, key: "k-1"), json: other)
            #expect(reused == .unprocessableContent)
            #expect(try JSONDecoder().decode(APIErrorBody.self, from: reusedBody).message.contains("Idempotency-Key"))
            #expect(
                try await client.call(.put, APIRoutes.messages(to: bob.accountId), headers: Self.headers(alice, key: "k-2"), json: other).0
                    == .ok)
            #expect(try await client.call(.put, APIRoutes.messages(to: bob.accountId), headers: alice.headers, json: other).0 == .ok)
            #expect(try await client.call(.put, APIRoutes.messages(to: bob.accountId), headers: alice.headers, json: other).0 == .ok)
            #expect(try await Self.mailbox(bob, client).count == 4)

            // Keys are per sending device: Carol's k-1 is hers.
            let carol = try await client.register("carol")
            #expect(
                try await client.call(.put, APIRoutes.messages(to: bob.accountId), headers: Self.headers(carol, key: "k-1"), json: first).0
                    == .ok)
            #expect(try await Self.mailbox(bob, client).count == 5)
        }
    }

    @Test func aRefusedSendKeepsNoKeyAndMalformedKeysAre400() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let registration = try MessageTests.registrationId(of: bob)
            let wrongDevice = SendMessagesRequest(messages: [MessageTests.message(2, registrationId: registration)], timestamp: 9)
            let repaired = SendMessagesRequest(messages: [MessageTests.message(1, registrationId: registration)], timestamp: 9)
            let headers = Self.headers(alice, key: "repair")
            #expect(try await client.call(.put, APIRoutes.messages(to: bob.accountId), headers: headers, json: wrongDevice).0 == .conflict)
            #expect(try await client.call(.put, APIRoutes.messages(to: bob.accountId), headers: headers, json: repaired).0 == .ok)
            #expect(try await Self.mailbox(bob, client).count == 1)
            for bad in ["", "\"\"", String(repeating: "k", count: 129), "two words", "quote\"inside", "back\\slash", "tab\tkey"] {
                let (status, body) = try await client.call(
                    .put, APIRoutes.messages(to: bob.accountId),
                    headers: Self.headers(alice, key: bad), json: repaired)
                #expect(status == .badRequest, "key \(bad.debugDescription)")
                #expect(try JSONDecoder().decode(APIErrorBody.self, from: body).code == "bad_request")
            }
            #expect(try await Self.mailbox(bob, client).count == 1)
        }
    }

    @Test func concurrentRepeatsStoreOnceAndAllGetTheFirstAnswer() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let registration = try MessageTests.registrationId(of: bob)
            let request = SendMessagesRequest(messages: [MessageTests.message(1, registrationId: registration)], timestamp: 5)
            let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, Data).self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await client.call(
                            .put, APIRoutes.messages(to: bob.accountId), headers: Self.headers(alice, key: "burst"), json: request)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0.0 == .ok })
            let timestamps = Set(try answers.map { try JSONDecoder().decode(SendMessagesResponse.self, from: $0.1).serverTimestamp })
            #expect(timestamps.count == 1, "every repeat gets the first answer")
            #expect(try await Self.mailbox(bob, client).count == 1)
        }
    }

    @Test func theKeyHoldsAcrossDoorsAndIsCarriedInSocketRequestHeaders() async throws {
        try await ServerHarness().runLive { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let registration = try MessageTests.registrationId(of: bob)
            let request = SendMessagesRequest(messages: [MessageTests.message(1, registrationId: registration)], timestamp: 77)
            let body = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
            let (status, httpBody) = try await client.call(
                .put, APIRoutes.messages(to: bob.accountId),
                headers: Self.headers(alice, key: "door"), json: request)
            #expect(status == .ok)
            let first = try JSONDecoder().decode(SendMessagesResponse.self, from: httpBody)
            try await client.withSocket(alice) { socket in
                _ = try await socket.expect(.queueEmpty)
                for (id, header) in [(UInt64(1), "Idempotency-Key:door"), (2, "idempotency-key:  door "), (3, "Idempotency-Key:fresh")] {
                    try await socket.send(
                        .request(
                            SocketRequest(
                                id: id, verb: "PUT", path: APIRoutes.messages(to: bob.accountId),
                                headers: ["X-Other:1", header], body: body)))
                    let response = try await SocketRequestTests.response(&socket)
                    #expect(response.id == id && response.status == 200)
                    let answer = try JSONDecoder().decode(SendMessagesResponse.self, from: Data((response.body ?? "").utf8))
                    #expect((answer == first) == (id != 3), "request \(id)")
                }
                try await socket.send(
                    .request(
                        SocketRequest(
                            id: 4, verb: "PUT", path: APIRoutes.messages(to: bob.accountId),
                            headers: ["Idempotency-Key:has space"], body: body)))
                #expect(try await SocketRequestTests.response(&socket).status == 400)
            }
            #expect(try await Self.mailbox(bob, client).count == 2)
        }
    }

    @Test func sealedSendsNeedUnguessableKeysAndARepeatIsAnsweredEvenAfterTheAccessKeyChanged() async throws {
        try await ServerHarness().run { client in
            let bob = try await client.register("bob")
            let registration = try MessageTests.registrationId(of: bob)
            let accessKey = (0..<16).map { _ in UInt8.random(in: 0...255) }
            #expect(
                try await client.call(
                    .put, APIRoutes.accountAttributes, headers: bob.headers,
                    json: AccountAttributesRequest(
                        unidentifiedAccessKey: Data(accessKey).base64EncodedString())
                ).0 == .noContent)
            func sealed(key: String, accessKey: [UInt8], timestamp: UInt64 = 9) async throws -> (HTTPResponse.Status, Data) {
                var headers = UnidentifiedAccessTests.headers(accessKey: accessKey)
                headers[HTTPField.Name(APIRoutes.idempotencyKeyHeader)!] = key
                return try await client.call(
                    .put, APIRoutes.messages(to: bob.accountId), headers: headers,
                    json: SendMessagesRequest(
                        messages: [MessageTests.message(1, registrationId: registration, type: 6)], timestamp: timestamp))
            }
            // Without credentials the key is shared with every other sender to Bob: a short one is refused.
            #expect(try await sealed(key: "k-1", accessKey: accessKey).0 == .badRequest)
            let key = "Jq1bM3Z0aXJ0eV9rZXlfZm9y"  // 24 characters
            let (status, body) = try await sealed(key: key, accessKey: accessKey)
            #expect(status == .ok)
            let first = try JSONDecoder().decode(SendMessagesResponse.self, from: body)
            // Bob rotates his access key; the sender, retrying a send whose answer it lost, still gets the first answer
            // (not a 401 it would work around by sending again with its credentials).
            #expect(
                try await client.call(
                    .put, APIRoutes.accountAttributes, headers: bob.headers,
                    json: AccountAttributesRequest(
                        unidentifiedAccessKey: Data(accessKey.map { $0 ^ 0xFF }).base64EncodedString())
                ).0 == .noContent)
            let (again, againBody) = try await sealed(key: key, accessKey: accessKey)
            #expect(again == .ok)
            #expect(try JSONDecoder().decode(SendMessagesResponse.self, from: againBody) == first)
            #expect(try await sealed(key: key, accessKey: accessKey, timestamp: 10).0 == .unprocessableContent)
            #expect(try await sealed(key: key + "x", accessKey: accessKey).0 == .unauthorized, "a new send is checked as always")
            #expect(try await Self.mailbox(bob, client).count == 1)
        }
    }

    @Test func theStoreWritesAKeyOnceAcrossAndWithinTransactions() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let bob = try await client.register("bob")
            func send(_ key: String?, _ content: UInt8) -> StoredSend {
                StoredSend(
                    envelopes: [
                        StoredEnvelope(
                            guid: UUID().uuidString.lowercased(), accountId: bob.accountId, deviceId: 1,
                            sourceAccountId: nil, sourceDeviceId: nil, type: 6, content: [content],
                            timestamp: 1, serverTimestamp: 1_000 + UInt64(content))
                    ],
                    idempotency: key.map {
                        IdempotencyRecord(
                            scope: "unidentified:\(bob.accountId)", key: $0, fingerprint: "f",
                            serverTimestamp: 1_000 + UInt64(content))
                    })
            }
            #expect(
                try await harness.store.storeSends([send("a", 1), send("a", 2), send(nil, 3), send("b", 4)]) == [true, false, true, true])
            #expect(try await harness.store.storeSends([send("b", 5), send("c", 6)]) == [false, true])
            #expect(try await harness.store.idempotencyRecord(scope: "unidentified:\(bob.accountId)", key: "a")?.serverTimestamp == 1_001)
            #expect(try await harness.store.idempotencyRecord(scope: "unidentified:other", key: "a") == nil)
            let stored = try await harness.store.pendingEnvelopes(accountId: bob.accountId, deviceId: 1, notBefore: 0, limit: 100)
            #expect(Set(stored.map(\.content)) == Set([1, 3, 4, 6].map { [UInt8($0)] }))
            #expect(try await harness.store.deleteIdempotencyRecords(olderThan: 1_005) == 2)
            #expect(try await harness.store.idempotencyRecord(scope: "unidentified:\(bob.accountId)", key: "c") != nil)
        }
    }
}
