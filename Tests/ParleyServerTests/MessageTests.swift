import Foundation
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyProtocol
import ParleyServer
import Testing

@Suite struct MessageTests {
    static func message(_ device: UInt32, registrationId: UInt32, content: [UInt8] = [1, 2, 3], type: UInt8 = 2) -> OutgoingMessage {
        OutgoingMessage(
            destinationDeviceId: device, destinationRegistrationId: registrationId, type: type,
            content: Data(content).base64EncodedString())
    }

    static func registrationId(of member: Member) throws -> UInt32 { try member.store.localRegistrationId(context: NullContext()) }

    @Test func envelopesAreStoredFetchedAndDeletedOnlyOnAcknowledgement() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let send = SendMessagesRequest(
                messages: [Self.message(1, registrationId: try Self.registrationId(of: bob), content: Array("ciphertext".utf8), type: 3)],
                timestamp: 42)
            let (status, _) = try await client.call(.put, APIRoutes.messages(to: bob.accountId), headers: alice.headers, json: send)
            #expect(status == .ok)
            for _ in 0..<2 {  // fetching does not delete
                let (_, body) = try await client.call(.get, APIRoutes.mailbox, headers: bob.headers)
                let page = try JSONDecoder().decode(EnvelopeListResponse.self, from: body)
                #expect(page.messages.count == 1 && !page.more)
                let envelope = page.messages[0]
                #expect(envelope.sourceAccountId == alice.accountId && envelope.sourceDeviceId == 1)
                #expect(envelope.type == 3 && envelope.timestamp == 42 && Data(base64Encoded: envelope.content) == Data("ciphertext".utf8))
            }
            let (_, body) = try await client.call(.get, APIRoutes.mailbox, headers: bob.headers)
            let guid = try JSONDecoder().decode(EnvelopeListResponse.self, from: body).messages[0].guid
            #expect(try await client.call(.delete, APIRoutes.acknowledge(guid: guid), headers: alice.headers).0 == .notFound)
            #expect(try await client.call(.delete, APIRoutes.acknowledge(guid: guid), headers: bob.headers).0 == .noContent)
            #expect(try await client.call(.delete, APIRoutes.acknowledge(guid: guid), headers: bob.headers).0 == .notFound)
            let (_, after) = try await client.call(.get, APIRoutes.mailbox, headers: bob.headers)
            #expect(try JSONDecoder().decode(EnvelopeListResponse.self, from: after).messages.isEmpty)
        }
    }

    @Test func wrongDeviceListsAreAnsweredWith409() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let registration = try Self.registrationId(of: bob)
            let (missingStatus, missingBody) = try await client.call(
                .put, APIRoutes.messages(to: bob.accountId), headers: alice.headers, json: SendMessagesRequest(messages: [], timestamp: 1))
            #expect(missingStatus == .conflict)
            #expect(
                try JSONDecoder().decode(MismatchedDevicesResponse.self, from: missingBody)
                    == MismatchedDevicesResponse(missingDevices: [1], extraDevices: []))
            let (extraStatus, extraBody) = try await client.call(
                .put, APIRoutes.messages(to: bob.accountId), headers: alice.headers,
                json: SendMessagesRequest(
                    messages: [Self.message(1, registrationId: registration), Self.message(2, registrationId: 5)], timestamp: 1))
            #expect(extraStatus == .conflict)
            #expect(try JSONDecoder().decode(MismatchedDevicesResponse.self, from: extraBody).extraDevices == [2])
            let (_, mailbox) = try await client.call(.get, APIRoutes.mailbox, headers: bob.headers)
            #expect(try JSONDecoder().decode(EnvelopeListResponse.self, from: mailbox).messages.isEmpty, "a refused send stores nothing")
        }
    }

    @Test func staleRegistrationIdsAreAnsweredWith410() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let wrong = try Self.registrationId(of: bob) % 16380 + 1
            let (status, body) = try await client.call(
                .put, APIRoutes.messages(to: bob.accountId), headers: alice.headers,
                json: SendMessagesRequest(messages: [Self.message(1, registrationId: wrong)], timestamp: 1))
            #expect(status == .gone)
            #expect(try JSONDecoder().decode(StaleDevicesResponse.self, from: body).staleDevices == [1])
        }
    }

    @Test func badSendsAreClientErrors() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let registration = try Self.registrationId(of: bob)
            let cases: [(String, SendMessagesRequest, HTTPResponse.Status)] = [
                (
                    bob.accountId, SendMessagesRequest(messages: [Self.message(1, registrationId: registration, type: 9)], timestamp: 1),
                    .badRequest
                ),
                (
                    bob.accountId,
                    SendMessagesRequest(messages: [Self.message(1, registrationId: registration, content: [])], timestamp: 1), .badRequest
                ),
                (
                    bob.accountId,
                    SendMessagesRequest(
                        messages: [Self.message(1, registrationId: registration, content: [UInt8](repeating: 7, count: 96 * 1024 + 1))],
                        timestamp: 1),
                    .badRequest
                ),
                (
                    bob.accountId,
                    SendMessagesRequest(
                        messages: [Self.message(1, registrationId: registration), Self.message(1, registrationId: registration)],
                        timestamp: 1), .badRequest
                ),
                (UUID().uuidString.lowercased(), SendMessagesRequest(messages: [], timestamp: 1), .notFound),
                (
                    bob.accountId, SendMessagesRequest(messages: [Self.message(1, registrationId: registration)], timestamp: .max),
                    .badRequest
                ),
            ]
            for (recipient, request, expected) in cases {
                let (status, body) = try await client.call(.put, APIRoutes.messages(to: recipient), headers: alice.headers, json: request)
                #expect(status == expected)
                #expect(try JSONDecoder().decode(APIErrorBody.self, from: body).code.isEmpty == false)
            }
            #expect(try await client.call(.put, APIRoutes.messages(to: bob.accountId), raw: "{}").0 == .unauthorized)
        }
    }

    @Test func endToEndEncryptedMessageThroughTheMailbox() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            try await client.uploadKeys(for: bob, count: 1)
            let (_, bundleBody) = try await client.call(
                .get, APIRoutes.bundle(accountId: bob.accountId, deviceId: "1"), headers: alice.headers)
            let response = try JSONDecoder().decode(PreKeyBundleResponse.self, from: bundleBody)
            let device = response.devices[0]
            let bytes = { (text: String) in [UInt8](Data(base64Encoded: text)!) }
            let context = NullContext()
            let bobAddress = try ProtocolAddress(name: bob.accountId, deviceId: 1)
            try processPreKeyBundle(
                try PreKeyBundle(response, device: device),
                for: bobAddress, sessionStore: alice.store, identityStore: alice.store, context: context)
            let ciphertext = try signalEncrypt(
                message: Array("hello bob".utf8), for: bobAddress, sessionStore: alice.store,
                identityStore: alice.store, context: context)
            let send = SendMessagesRequest(
                messages: [
                    OutgoingMessage(
                        destinationDeviceId: 1, destinationRegistrationId: device.registrationId, type: ciphertext.messageType.rawValue,
                        content: ciphertext.serialize().base64EncodedString())
                ], timestamp: 7)
            #expect(try await client.call(.put, APIRoutes.messages(to: bob.accountId), headers: alice.headers, json: send).0 == .ok)
            let (_, mailbox) = try await client.call(.get, APIRoutes.mailbox, headers: bob.headers)
            let envelope = try JSONDecoder().decode(EnvelopeListResponse.self, from: mailbox).messages[0]
            let plaintext = try signalDecryptPreKey(
                message: try PreKeySignalMessage(bytes: bytes(envelope.content)),
                from: try ProtocolAddress(name: try #require(envelope.sourceAccountId), deviceId: try #require(envelope.sourceDeviceId)),
                sessionStore: bob.store, identityStore: bob.store, preKeyStore: bob.store, signedPreKeyStore: bob.store,
                kyberPreKeyStore: bob.store, context: context)
            #expect(Array(plaintext) == Array("hello bob".utf8))
        }
    }

    @Test func expiredEnvelopesAreNotHandedOutAndAreSwept() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let bob = try await client.register("bob")
            let stale = StoredEnvelope(
                guid: "old", accountId: bob.accountId, deviceId: 1, sourceAccountId: "x", sourceDeviceId: 1,
                type: 2, content: [1], timestamp: 1, serverTimestamp: 1_000)
            try await harness.store.storeEnvelopes([stale])
            let (_, body) = try await client.call(.get, APIRoutes.mailbox, headers: bob.headers)
            #expect(try JSONDecoder().decode(EnvelopeListResponse.self, from: body).messages.isEmpty)
            #expect(try await harness.store.deleteEnvelopes(olderThan: 2_000) == 1)
        }
    }
}
