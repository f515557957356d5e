import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyProtocol
import ParleyServer
import Testing

/// `PUT /v1/messages/multi_recipient`: one sealed sender v2 upload, a share for every recipient device, no sender.
@Suite struct MultiRecipientSendTests {
    static let accessKeyField = HTTPField.Name(APIRoutes.unidentifiedAccessKeyHeader)!

    static func put(
        _ client: any TestClientProtocol, _ body: Data, accessKey: [UInt8]?, timestamp: UInt64 = 99,
        credentials: Member? = nil
    ) async throws -> (HTTPResponse.Status, Data) {
        var headers: HTTPFields = [.contentType: "application/vnd.signal-messenger.mrm"]
        if let accessKey { headers[accessKeyField] = Data(accessKey).base64EncodedString() }
        if let credentials { headers[.authorization] = credentials.authorization }
        return try await client.execute(
            uri: APIRoutes.multiRecipientMessages(timestamp: timestamp), method: .put, headers: headers,
            body: ByteBuffer(bytes: body)
        ) { response in (response.status, Data(response.body.readableBytesView)) }
    }

    static func setAccessKey(_ key: [UInt8], for member: Member, _ client: any TestClientProtocol) async throws {
        #expect(
            try await client.call(
                .put, APIRoutes.accountAttributes, headers: member.headers,
                json: AccountAttributesRequest(
                    unidentifiedAccessKey: Data(key).base64EncodedString())
            ).0 == .noContent)
    }

    static func session(_ sender: Member, with member: Member, _ client: any TestClientProtocol) async throws {
        let (_, body) = try await client.call(
            .get, APIRoutes.bundle(accountId: member.accountId, deviceId: String(member.deviceId)), headers: sender.headers)
        let response = try JSONDecoder().decode(PreKeyBundleResponse.self, from: body)
        try processPreKeyBundle(
            try PreKeyBundle(response, device: response.devices[0]),
            for: try ProtocolAddress(name: member.accountId, deviceId: member.deviceId),
            sessionStore: sender.store, identityStore: sender.store, context: NullContext())
    }

    @Test func oneUploadReachesEveryRecipientDeviceWithoutASender() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let carol = try await client.register("carol")
            // Bob has a second device, with his identity.
            let code = try await DeviceTests.issueCode(client, for: bob)
            let (linkRequest, password) = DeviceTests.linkRequest(code: code, registrationId: 77)
            #expect(try await client.call(.put, APIRoutes.linkDevice, json: linkRequest).0 == .created)
            let bobIdentity = try bob.store.identityKeyPair(context: NullContext())
            let bobPhone = Member(
                accountId: bob.accountId, deviceId: 2, password: password,
                store: InMemorySignalProtocolStore(identity: bobIdentity, registrationId: 77))
            for member in [bob, bobPhone, carol] { try await client.uploadKeys(for: member, count: 1) }
            for member in [bob, bobPhone, carol] { try await Self.session(alice, with: member, client) }
            let bobKey = (0..<16).map { _ in UInt8.random(in: 0...255) }
            let carolKey = (0..<16).map { _ in UInt8.random(in: 0...255) }
            try await Self.setAccessKey(bobKey, for: bob, client)
            try await Self.setAccessKey(carolKey, for: carol, client)
            let combined = zip(bobKey, carolKey).map { $0 ^ $1 }

            let context = NullContext()
            let (_, certificateBody) = try await client.call(.get, APIRoutes.deliveryCertificate, headers: alice.headers)
            let certificate = try SenderCertificate(
                try #require(
                    Data(
                        base64Encoded: try JSONDecoder().decode(
                            DeliveryCertificateResponse.self, from: certificateBody
                        ).certificate)))
            func upload(_ text: String, to members: [Member]) throws -> Data {
                let addresses = try members.map { try ProtocolAddress(name: $0.accountId, deviceId: $0.deviceId) }
                // Sender Key would carry a group message; a 1:1 whisper inside each recipient's share is enough here.
                let inner = try signalEncrypt(
                    message: Array(text.utf8), for: addresses[0], sessionStore: alice.store,
                    identityStore: alice.store, context: context)
                return try sealedSenderMultiRecipientEncrypt(
                    UnidentifiedSenderMessageContent(inner, from: certificate), for: addresses,
                    identityStore: alice.store, sessionStore: alice.store, context: context)
            }
            let everyone = try upload("to all", to: [bob, bobPhone, carol])

            // Refusals store nothing.
            #expect(
                try await Self.put(client, everyone, accessKey: bobKey).0 == .unauthorized, "one recipient's key is not the combined key")
            #expect(try await Self.put(client, everyone, accessKey: nil).0 == .unauthorized)
            #expect(try await Self.put(client, everyone, accessKey: combined, credentials: alice).0 == .badRequest, "sent with credentials")
            #expect(try await Self.put(client, Data([0x23, 0xff]), accessKey: combined).0 == .badRequest)
            #expect(try await Self.put(client, Data(), accessKey: combined).0 == .badRequest)
            let onlyBobsLaptop = try upload("partial", to: [bob, carol])
            let (conflict, conflictBody) = try await Self.put(client, onlyBobsLaptop, accessKey: combined)
            #expect(conflict == .conflict)
            #expect(
                try JSONDecoder().decode([AccountMismatchedDevices].self, from: conflictBody) == [
                    AccountMismatchedDevices(uuid: bob.accountId, devices: MismatchedDevicesResponse(missingDevices: [2], extraDevices: []))
                ])
            for member in [bob, bobPhone, carol] {
                let (_, mailbox) = try await client.call(.get, APIRoutes.mailbox, headers: member.headers)
                #expect(try JSONDecoder().decode(EnvelopeListResponse.self, from: mailbox).messages.isEmpty)
            }

            // The combined key: every device gets its recipient's share, with no source, and opens it.
            let (status, _) = try await Self.put(client, everyone, accessKey: combined)
            #expect(status == .ok)
            for member in [bob, bobPhone, carol] {
                let (_, mailbox) = try await client.call(.get, APIRoutes.mailbox, headers: member.headers)
                let envelopes = try JSONDecoder().decode(EnvelopeListResponse.self, from: mailbox).messages
                #expect(envelopes.count == 1)
                let envelope = try #require(envelopes.first)
                #expect(envelope.sourceAccountId == nil && envelope.sourceDeviceId == nil && envelope.type == 6 && envelope.timestamp == 99)
                let opened = try sealedSenderDecryptToUSMC(
                    message: try #require(Data(base64Encoded: envelope.content)), trustRoot: harness.dependencies.sealedSender.trustRoot,
                    timestamp: UInt64(Date().timeIntervalSince1970 * 1000), identityStore: member.store, context: context)
                #expect(opened.senderCertificate.senderUuid.lowercased() == alice.accountId)
            }
            let stored = try await harness.store.pendingEnvelopes(accountId: carol.accountId, deviceId: 1, notBefore: 0, limit: 10)
            #expect(stored.allSatisfy { $0.sourceAccountId == nil })
        }
    }

    /// One upload stores a copy for every device of up to a thousand recipients: the client address pays a token of
    /// its sealed-send bucket per recipient, as that many 1:1 sealed sends would, not one for the lot.
    @Test func aMultiRecipientSendCostsTheAddressATokenPerRecipient() async throws {
        var limits = ServerLimits()
        limits.rateLimits.unidentifiedSendPerAddress = TokenBucketPolicy(capacity: 5, refillPerSecond: 0.001)
        limits.connections.trustedProxies = ["127.0.0.1"]
        try await ServerHarness(limits: limits).runLive { client in
            let alice = try await client.register("alice")
            var recipients: [Member] = []
            for name in ["bob", "carol", "dave"] {
                let member = try await client.register(name)
                try await client.uploadKeys(for: member, count: 1)
                try await Self.session(alice, with: member, client)
                #expect(
                    try await client.call(
                        .put, APIRoutes.accountAttributes, headers: member.headers,
                        json: AccountAttributesRequest(
                            unidentifiedAccessKey: nil, unrestrictedUnidentifiedAccess: true)
                    ).0 == .noContent)
                recipients.append(member)
            }
            let context = NullContext()
            let (_, certificateBody) = try await client.call(.get, APIRoutes.deliveryCertificate, headers: alice.headers)
            let certificate = try SenderCertificate(
                try #require(
                    Data(
                        base64Encoded: try JSONDecoder().decode(
                            DeliveryCertificateResponse.self, from: certificateBody
                        ).certificate)))
            let addresses = try recipients.map { try ProtocolAddress(name: $0.accountId, deviceId: $0.deviceId) }
            let inner = try signalEncrypt(
                message: Array("to three".utf8), for: addresses[0], sessionStore: alice.store,
                identityStore: alice.store, context: context)
            let upload = try sealedSenderMultiRecipientEncrypt(
                UnidentifiedSenderMessageContent(inner, from: certificate), for: addresses,
                identityStore: alice.store, sessionStore: alice.store, context: context)
            func put(from address: String, at timestamp: UInt64) async throws -> HTTPResponse.Status {
                var headers: HTTPFields = [
                    .contentType: "application/vnd.signal-messenger.mrm", HTTPField.Name("X-Forwarded-For")!: address,
                ]
                // Every recipient allows anyone: the combined key leaves them all out.
                headers[Self.accessKeyField] = Data(count: 16).base64EncodedString()
                return try await client.execute(
                    uri: APIRoutes.multiRecipientMessages(timestamp: timestamp), method: .put, headers: headers,
                    body: ByteBuffer(bytes: upload)
                ) { $0.status }
            }
            // Five tokens: three for the first send, and the second (three more) is turned away whole.
            #expect(try await put(from: "203.0.113.7", at: 100) == .ok)
            #expect(try await put(from: "203.0.113.7", at: 101) == .tooManyRequests)
            #expect(try await put(from: "203.0.113.8", at: 102) == .ok, "another address has its own bucket")
            for member in recipients {
                let (_, mailbox) = try await client.call(.get, APIRoutes.mailbox, headers: member.headers)
                #expect(try JSONDecoder().decode(EnvelopeListResponse.self, from: mailbox).messages.map(\.timestamp) == [100, 102])
            }
        }
    }

    @Test func staleAndUnknownRecipientsAreNamedAndNothingIsStored() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            try await client.uploadKeys(for: bob, count: 1)
            try await Self.session(alice, with: bob, client)
            let bobKey = [UInt8](repeating: 5, count: 16)
            try await Self.setAccessKey(bobKey, for: bob, client)
            let (_, certificateBody) = try await client.call(.get, APIRoutes.deliveryCertificate, headers: alice.headers)
            let certificate = try SenderCertificate(
                try #require(
                    Data(
                        base64Encoded: try JSONDecoder().decode(
                            DeliveryCertificateResponse.self, from: certificateBody
                        ).certificate)))
            let context = NullContext()
            let bobAddress = try ProtocolAddress(name: bob.accountId, deviceId: 1)
            let inner = try signalEncrypt(
                message: [1], for: bobAddress, sessionStore: alice.store, identityStore: alice.store, context: context)
            let content = UnidentifiedSenderMessageContent(inner, from: certificate)

            // An account the server does not have (Alice's session with Bob copied under its name): 404 naming it.
            let stranger = try ProtocolAddress(name: UUID().uuidString.lowercased(), deviceId: 1)
            try alice.store.storeSession(
                try #require(try alice.store.loadSession(for: bobAddress, context: context)), for: stranger, context: context)
            _ = try alice.store.saveIdentity(try alice.store.identity(for: bobAddress, context: context)!, for: stranger, context: context)
            let toStranger = try sealedSenderMultiRecipientEncrypt(
                content, for: [bobAddress, stranger], identityStore: alice.store, sessionStore: alice.store, context: context)
            let (notFound, notFoundBody) = try await MultiRecipientSendTests.put(client, toStranger, accessKey: bobKey)
            #expect(notFound == .notFound)
            #expect(try JSONDecoder().decode(UnknownRecipientsResponse.self, from: notFoundBody).uuids404 == [stranger.name])

            // Bob re-registers: his registration id changes, the upload is stale.
            let reset = DeviceRegistrationRequest(registrationId: 4321, password: Data(repeating: 8, count: 32).base64EncodedString())
            #expect(try await client.call(.put, APIRoutes.deviceRegistration, headers: bob.headers, json: reset).0 == .noContent)
            let toBob = try sealedSenderMultiRecipientEncrypt(
                content, for: [bobAddress], identityStore: alice.store,
                sessionStore: alice.store, context: context)
            let (gone, goneBody) = try await MultiRecipientSendTests.put(client, toBob, accessKey: bobKey)
            #expect(gone == .gone)
            #expect(
                try JSONDecoder().decode([AccountStaleDevices].self, from: goneBody) == [
                    AccountStaleDevices(uuid: bob.accountId, devices: StaleDevicesResponse(staleDevices: [1]))
                ])
            let stored = try await client.call(
                .get, APIRoutes.mailbox,
                headers: Member(
                    accountId: bob.accountId, deviceId: 1,
                    password: Data(repeating: 8, count: 32).base64EncodedString(),
                    store: bob.store
                ).headers)
            #expect(try JSONDecoder().decode(EnvelopeListResponse.self, from: stored.1).messages.isEmpty)
        }
    }
}
