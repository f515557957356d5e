import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyProtocol
import ParleyServer
import Testing

/// Sealed sender through the server: a send without credentials but with the recipient's unidentified access key is
/// stored with no source, and only the recipient learns the sender, from the certificate inside.
@Suite struct UnidentifiedAccessTests {
    static let accessKeyField = HTTPField.Name(APIRoutes.unidentifiedAccessKeyHeader)!

    static func headers(accessKey: [UInt8]) -> HTTPFields {
        [.contentType: "application/json", accessKeyField: Data(accessKey).base64EncodedString()]
    }

    static func envelopes(of member: Member, _ client: any TestClientProtocol) async throws -> [Envelope] {
        let (_, body) = try await client.call(.get, APIRoutes.mailbox, headers: member.headers)
        return try JSONDecoder().decode(EnvelopeListResponse.self, from: body).messages
    }

    @Test func aSealedMessageIsStoredWithoutItsSenderAndOnlyTheRecipientLearnsIt() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let accessKey = (0..<16).map { _ in UInt8.random(in: 0...255) }
            #expect(
                try await client.call(
                    .put, APIRoutes.accountAttributes, headers: bob.headers,
                    json: AccountAttributesRequest(
                        unidentifiedAccessKey: Data(accessKey).base64EncodedString())
                ).0 == .noContent)
            try await client.uploadKeys(for: bob, count: 1)

            // Alice: a session from Bob's bundle, her sender certificate, the message sealed.
            let context = NullContext()
            let (_, bundleBody) = try await client.call(
                .get, APIRoutes.bundle(accountId: bob.accountId, deviceId: "1"), headers: alice.headers)
            let bundle = try JSONDecoder().decode(PreKeyBundleResponse.self, from: bundleBody)
            let bobAddress = try ProtocolAddress(name: bob.accountId, deviceId: 1)
            try processPreKeyBundle(
                try PreKeyBundle(bundle, device: bundle.devices[0]), for: bobAddress,
                sessionStore: alice.store, identityStore: alice.store, context: context)
            let (_, certificateBody) = try await client.call(.get, APIRoutes.deliveryCertificate, headers: alice.headers)
            let certificate = try SenderCertificate(
                try #require(
                    Data(
                        base64Encoded: try JSONDecoder().decode(
                            DeliveryCertificateResponse.self, from: certificateBody
                        ).certificate)))
            let sealed = try sealedSenderEncrypt(
                message: Array("hello, sealed".utf8), for: bobAddress, from: certificate,
                sessionStore: alice.store, identityStore: alice.store, context: context)
            func send(type: UInt8 = OutgoingMessage.unidentifiedSenderType) -> SendMessagesRequest {
                SendMessagesRequest(
                    messages: [
                        OutgoingMessage(
                            destinationDeviceId: 1, destinationRegistrationId: bundle.devices[0].registrationId, type: type,
                            content: sealed.base64EncodedString())
                    ], timestamp: 77)
            }

            // Refusals store nothing: a wrong key, no key at all, an unsealed type, an account that does not exist.
            let wrongKey = accessKey.map { $0 ^ 1 }
            #expect(
                try await client.call(.put, APIRoutes.messages(to: bob.accountId), headers: Self.headers(accessKey: wrongKey), json: send())
                    .0 == .unauthorized)
            #expect(try await client.call(.put, APIRoutes.messages(to: bob.accountId), json: send()).0 == .unauthorized)
            var malformed = Self.headers(accessKey: accessKey)
            malformed[Self.accessKeyField] = "not-a-key"
            #expect(try await client.call(.put, APIRoutes.messages(to: bob.accountId), headers: malformed, json: send()).0 == .unauthorized)
            #expect(
                try await client.call(
                    .put, APIRoutes.messages(to: bob.accountId), headers: Self.headers(accessKey: accessKey), json: send(type: 2)
                ).0 == .badRequest)
            #expect(
                try await client.call(
                    .put, APIRoutes.messages(to: UUID().uuidString.lowercased()), headers: Self.headers(accessKey: accessKey), json: send()
                ).0 == .unauthorized)
            #expect(try await Self.envelopes(of: bob, client).isEmpty)

            // The right key: accepted, stored without a source.
            let (status, _) = try await client.call(
                .put, APIRoutes.messages(to: bob.accountId), headers: Self.headers(accessKey: accessKey), json: send())
            #expect(status == .ok)
            let envelopes = try await Self.envelopes(of: bob, client)
            #expect(envelopes.count == 1)
            let envelope = try #require(envelopes.first)
            #expect(envelope.sourceAccountId == nil && envelope.sourceDeviceId == nil && envelope.type == 6 && envelope.timestamp == 77)
            let stored = try await harness.store.pendingEnvelopes(accountId: bob.accountId, deviceId: 1, notBefore: 0, limit: 10)
            #expect(stored.count == 1 && stored.allSatisfy { $0.sourceAccountId == nil && $0.sourceDeviceId == nil })
            if harness.store is SQLiteStore {
                // The database file itself: no row in the mailbox names Alice.
                let file = try DatabaseQueue(path: harness.directory.appendingPathComponent("server.sqlite").path)
                let rows = try file.read { db -> [Row] in
                    try Row.fetchAll(db, sql: "SELECT source_account_id, source_device_id FROM mailbox")
                }
                #expect(rows.count == 1)
                #expect(rows.allSatisfy { ($0["source_account_id"] as String?) == nil && ($0["source_device_id"] as Int64?) == nil })
                let mentions = try await file.read { db -> Int? in
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM mailbox WHERE source_account_id = ?", arguments: [alice.accountId])
                }
                #expect(mentions == 0)
            }

            // Bob opens it with the trust root and learns Alice from her certificate.
            let result = try sealedSenderDecrypt(
                message: try #require(Data(base64Encoded: envelope.content)),
                from: try SealedSenderAddress(e164: nil, uuidString: bob.accountId, deviceId: 1),
                trustRoot: harness.dependencies.sealedSender.trustRoot, timestamp: UInt64(Date().timeIntervalSince1970 * 1000),
                sessionStore: bob.store, identityStore: bob.store, preKeyStore: bob.store, signedPreKeyStore: bob.store,
                kyberPreKeyStore: bob.store, context: context)
            #expect(result.sender.uuidString.lowercased() == alice.accountId && result.sender.deviceId == 1)
            #expect(Array(result.message) == Array("hello, sealed".utf8))
        }
    }

    @Test func attributesAreCheckedAndUnrestrictedAccessAcceptsAnyKey() async throws {
        try await ServerHarness().run { client in
            let carol = try await client.register("carol")
            let registrationId = try carol.store.localRegistrationId(context: NullContext())
            let send = SendMessagesRequest(
                messages: [
                    OutgoingMessage(
                        destinationDeviceId: 1, destinationRegistrationId: registrationId, type: OutgoingMessage.unidentifiedSenderType,
                        content: Data([1, 2, 3]).base64EncodedString())
                ], timestamp: 5)
            let anyKey = [UInt8](repeating: 9, count: 16)
            // No key registered: nothing opens the mailbox.
            #expect(
                try await client.call(.put, APIRoutes.messages(to: carol.accountId), headers: Self.headers(accessKey: anyKey), json: send).0
                    == .unauthorized)
            for bad in ["AAAA", String(repeating: "A", count: 200), "***"] {
                #expect(
                    try await client.call(
                        .put, APIRoutes.accountAttributes, headers: carol.headers,
                        json: AccountAttributesRequest(
                            unidentifiedAccessKey: bad)
                    ).0 == .badRequest)
            }
            #expect(
                try await client.call(
                    .put, APIRoutes.accountAttributes,
                    json: AccountAttributesRequest(
                        unidentifiedAccessKey: nil, unrestrictedUnidentifiedAccess: true)
                ).0 == .unauthorized)
            #expect(
                try await client.call(
                    .put, APIRoutes.accountAttributes, headers: carol.headers,
                    json: AccountAttributesRequest(
                        unidentifiedAccessKey: nil, unrestrictedUnidentifiedAccess: true)
                ).0 == .noContent)
            #expect(
                try await client.call(.put, APIRoutes.messages(to: carol.accountId), headers: Self.headers(accessKey: anyKey), json: send).0
                    == .ok)
            let envelopes = try await Self.envelopes(of: carol, client)
            #expect(envelopes.count == 1 && envelopes[0].sourceAccountId == nil)
        }
    }

    @Test func aKeyGivenAtRegistrationIsTheOneChecked() async throws {
        try await ServerHarness().run { client in
            let store = InMemorySignalProtocolStore()
            let accessKey = [UInt8](repeating: 0x42, count: 16)
            let registrationId = try store.localRegistrationId(context: NullContext())
            let (status, body) = try await client.call(
                .post, APIRoutes.accounts,
                json: RegisterAccountRequest(
                    username: "dave",
                    identityKey: try store.identityKeyPair(context: NullContext()).publicKey.serialize().base64EncodedString(),
                    registrationId: registrationId, password: Data(repeating: 3, count: 32).base64EncodedString(), deviceName: nil,
                    unidentifiedAccessKey: Data(accessKey).base64EncodedString()))
            #expect(status == .created)
            let dave = try JSONDecoder().decode(RegisterAccountResponse.self, from: body)
            let send = SendMessagesRequest(
                messages: [
                    OutgoingMessage(
                        destinationDeviceId: 1, destinationRegistrationId: registrationId, type: OutgoingMessage.unidentifiedSenderType,
                        content: Data([4, 5, 6]).base64EncodedString())
                ], timestamp: 6)
            #expect(
                try await client.call(.put, APIRoutes.messages(to: dave.accountId), headers: Self.headers(accessKey: accessKey), json: send)
                    .0 == .ok)
            // The device list is checked as for any send: the sealed sender repairs from the same 409.
            let (conflict, _) = try await client.call(
                .put, APIRoutes.messages(to: dave.accountId), headers: Self.headers(accessKey: accessKey),
                json: SendMessagesRequest(messages: [], timestamp: 6))
            #expect(conflict == .conflict)
        }
    }

    /// The bundle fetch before a sealed send can show the account's access key instead of credentials, so it does not
    /// say who is about to send: the right key gets the bundle (a one-time key claimed), a wrong key, no key and an
    /// unknown account are all 401, and the fetches are limited per client address and per account.
    @Test func bundlesAreFetchedWithTheAccessKeyAndLimitedPerAddressAndAccount() async throws {
        var limits = ServerLimits()
        limits.rateLimits.unidentifiedBundleFetchPerAddress = TokenBucketPolicy(capacity: 7, refillPerSecond: 0.001)
        limits.rateLimits.unidentifiedBundleFetchPerAccountPerAddress = TokenBucketPolicy(capacity: 2, refillPerSecond: 0.001)
        // Live: the per-address bucket needs a client address, which only a real connection has.
        try await ServerHarness(limits: limits).runLive { client in
            let bob = try await client.register("bob")
            let carol = try await client.register("carol")
            let accessKey = (0..<16).map { _ in UInt8.random(in: 0...255) }
            for member in [bob, carol] {
                #expect(
                    try await client.call(
                        .put, APIRoutes.accountAttributes, headers: member.headers,
                        json: AccountAttributesRequest(
                            unidentifiedAccessKey: Data(accessKey).base64EncodedString())
                    ).0 == .noContent)
                try await client.uploadKeys(for: member, count: 3)
            }
            func fetch(_ accountId: String, key: [UInt8]?) async throws -> (HTTPResponse.Status, Data) {
                try await client.call(
                    .get, APIRoutes.bundle(accountId: accountId, deviceId: "*"),
                    headers: key.map { Self.headers(accessKey: $0) } ?? [:])
            }
            // An account open to sealed sends from anyone is not open to having its one-time keys drained by anyone.
            let dave = try await client.register("dave")
            #expect(
                try await client.call(
                    .put, APIRoutes.accountAttributes, headers: dave.headers,
                    json: AccountAttributesRequest(
                        unidentifiedAccessKey: nil, unrestrictedUnidentifiedAccess: true)
                ).0 == .noContent)
            try await client.uploadKeys(for: dave, count: 1)
            #expect(
                try await client.call(
                    .get, APIRoutes.bundle(accountId: dave.accountId, deviceId: "*"),
                    headers: Self.headers(accessKey: [UInt8](repeating: 1, count: 16))
                ).0 == .unauthorized)
            let (status, body) = try await fetch(bob.accountId, key: accessKey)
            #expect(status == .ok)
            let bundle = try JSONDecoder().decode(PreKeyBundleResponse.self, from: body)
            #expect(bundle.devices.count == 1 && bundle.devices[0].preKey != nil)
            #expect(try await fetch(bob.accountId, key: accessKey.map { $0 ^ 1 }).0 == .unauthorized)
            #expect(try await fetch(bob.accountId, key: nil).0 == .unauthorized)
            #expect(try await fetch(UUID().uuidString.lowercased(), key: accessKey).0 == .unauthorized)
            // Bob's bucket for this address holds two: the third fetch of his keys without credentials from here is
            // refused (a contact emptying it turns away only itself), Carol's still served.
            #expect(try await fetch(bob.accountId, key: accessKey).0 == .ok)
            #expect(try await fetch(bob.accountId, key: accessKey).0 == .tooManyRequests)
            #expect(try await fetch(carol.accountId, key: accessKey).0 == .ok)
            // This address's bucket holds seven, all taken above (the request without a key is refused before it counts).
            #expect(try await fetch(carol.accountId, key: accessKey).0 == .tooManyRequests)
            // With credentials the caller's own bucket counts, as before.
            #expect(try await client.call(.get, APIRoutes.bundle(accountId: carol.accountId, deviceId: "1"), headers: bob.headers).0 == .ok)
        }
    }

    /// A typing indicator with sealed copies goes to `PUT /v1/ephemeral/{account}` with the account's access key: the
    /// right key is 204, a wrong one or an unknown account 401, a malformed event 400, and one address's events to one
    /// account are limited; a device's credentials work too (the event then names it, as on its socket).
    @Test func sealedEphemeralEventsTakeTheAccessKeyAndAreLimited() async throws {
        var limits = ServerLimits()
        limits.rateLimits.unidentifiedEphemeralPerRecipientPerAddress = TokenBucketPolicy(capacity: 2, refillPerSecond: 0.001)
        try await ServerHarness(limits: limits).runLive { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let accessKey = (0..<16).map { _ in UInt8.random(in: 0...255) }
            #expect(
                try await client.call(
                    .put, APIRoutes.accountAttributes, headers: bob.headers,
                    json: AccountAttributesRequest(
                        unidentifiedAccessKey: Data(accessKey).base64EncodedString())
                ).0 == .noContent)
            let event = EphemeralEvent(
                destinationAccountId: bob.accountId, kind: "typing", content: Data([1, 2, 3]).base64EncodedString(),
                timestamp: 5)
            func relay(_ to: String, key: [UInt8]?, _ body: EphemeralEvent = event, headers: HTTPFields? = nil) async throws
                -> HTTPResponse.Status
            {
                try await client.call(
                    .put, APIRoutes.sealedEphemeral(to: to), headers: headers ?? key.map { Self.headers(accessKey: $0) } ?? [:],
                    json: body
                ).0
            }
            #expect(try await relay(bob.accountId, key: accessKey) == .noContent)
            #expect(try await relay(bob.accountId, key: accessKey.map { $0 ^ 1 }) == .unauthorized)
            #expect(try await relay(UUID().uuidString.lowercased(), key: accessKey) == .unauthorized)
            #expect(try await relay(bob.accountId, key: nil) == .unauthorized)
            let malformed = EphemeralEvent(destinationAccountId: bob.accountId, kind: "no spaces", content: "", timestamp: 5)
            #expect(try await relay(bob.accountId, key: accessKey, malformed) == .badRequest)
            // This address's bucket for Bob holds two: the third is refused.
            #expect(try await relay(bob.accountId, key: accessKey) == .noContent)
            #expect(try await relay(bob.accountId, key: accessKey) == .tooManyRequests)
            // With credentials the device's own bucket counts.
            #expect(try await relay(bob.accountId, key: nil, headers: alice.headers) == .noContent)
        }
    }

    @Test func unidentifiedSendsAreLimitedPerRecipientAndPerAddress() async throws {
        var limits = ServerLimits()
        limits.rateLimits.unidentifiedSendPerRecipient = TokenBucketPolicy(capacity: 3, refillPerSecond: 0.001)
        limits.rateLimits.unidentifiedSendPerAddress = TokenBucketPolicy(capacity: 5, refillPerSecond: 0.001)
        // Live: the per-address bucket needs a client address, which only a real connection has.
        try await ServerHarness(limits: limits).runLive { client in
            var recipients: [(member: Member, send: SendMessagesRequest)] = []
            for name in ["erin", "frank"] {
                let member = try await client.register(name)
                #expect(
                    try await client.call(
                        .put, APIRoutes.accountAttributes, headers: member.headers,
                        json: AccountAttributesRequest(
                            unidentifiedAccessKey: nil, unrestrictedUnidentifiedAccess: true)
                    ).0 == .noContent)
                recipients.append(
                    (
                        member,
                        SendMessagesRequest(
                            messages: [
                                OutgoingMessage(
                                    destinationDeviceId: 1,
                                    destinationRegistrationId: try member.store.localRegistrationId(context: NullContext()),
                                    type: OutgoingMessage.unidentifiedSenderType, content: Data([7]).base64EncodedString())
                            ], timestamp: 9)
                    ))
            }
            let anyKey = [UInt8](repeating: 1, count: 16)
            func send(to index: Int) async throws -> HTTPResponse.Status {
                try await client.call(
                    .put, APIRoutes.messages(to: recipients[index].member.accountId), headers: Self.headers(accessKey: anyKey),
                    json: recipients[index].send
                ).0
            }
            // Erin's bucket holds three: the fourth sealed send to her is refused and stores nothing.
            for _ in 0..<3 { #expect(try await send(to: 0) == .ok) }
            #expect(try await send(to: 0) == .tooManyRequests)
            #expect(try await Self.envelopes(of: recipients[0].member, client).count == 3)
            // This address's bucket holds five (four taken above, the refused one included): one more to Frank, then none.
            #expect(try await send(to: 1) == .ok)
            #expect(try await send(to: 1) == .tooManyRequests)
            #expect(try await Self.envelopes(of: recipients[1].member, client).count == 1)
        }
    }

    /// Someone flooding a recipient with sealed sends from one address uses up only that address's bucket for the
    /// recipient: sealed sends to it from elsewhere still go through (the recipient's own bucket is a backstop).
    @Test func aFloodToOneRecipientFromOneAddressDoesNotTurnAwayOthers() async throws {
        var limits = ServerLimits()
        limits.rateLimits.unidentifiedSendPerRecipientPerAddress = TokenBucketPolicy(capacity: 3, refillPerSecond: 0.001)
        limits.rateLimits.unidentifiedSendPerRecipient = TokenBucketPolicy(capacity: 5, refillPerSecond: 0.001)
        limits.connections.trustedProxies = ["127.0.0.1"]
        try await ServerHarness(limits: limits).runLive { client in
            let grace = try await client.register("grace")
            #expect(
                try await client.call(
                    .put, APIRoutes.accountAttributes, headers: grace.headers,
                    json: AccountAttributesRequest(
                        unidentifiedAccessKey: nil, unrestrictedUnidentifiedAccess: true)
                ).0 == .noContent)
            let request = SendMessagesRequest(
                messages: [
                    OutgoingMessage(
                        destinationDeviceId: 1, destinationRegistrationId: try grace.store.localRegistrationId(context: NullContext()),
                        type: OutgoingMessage.unidentifiedSenderType, content: Data([7]).base64EncodedString())
                ], timestamp: 9)
            func send(from address: String) async throws -> HTTPResponse.Status {
                var headers = Self.headers(accessKey: [UInt8](repeating: 1, count: 16))
                headers[HTTPField.Name("X-Forwarded-For")!] = address
                return try await client.call(.put, APIRoutes.messages(to: grace.accountId), headers: headers, json: request).0
            }
            for _ in 0..<3 { #expect(try await send(from: "203.0.113.1") == .ok) }
            #expect(try await send(from: "203.0.113.1") == .tooManyRequests, "the flooding address")
            #expect(try await send(from: "203.0.113.2") == .ok, "another sender")
            // Past the recipient's own bucket (five: the refused send took none of it), every address waits.
            #expect(try await send(from: "203.0.113.3") == .ok)
            #expect(try await send(from: "203.0.113.4") == .tooManyRequests)
            #expect(try await Self.envelopes(of: grace, client).count == 5)
        }
    }
}
