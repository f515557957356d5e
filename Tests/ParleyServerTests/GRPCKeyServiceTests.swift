import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import HummingbirdTesting
import ParleyAPI
import ParleyGRPC
import ParleyProtocol
import ParleyServer
import Testing

typealias KeyServiceClient = Nova_Signal_E2ee_V1_SignalE2EEService.Client<HTTP2ClientTransport.Posix>

/// Seed 002's gRPC key service, driven by a grpc-swift client generated from the same `.proto`, beside the REST
/// routes on one store (both backends: the suite runs again on PostgreSQL).
@Suite struct GRPCKeyServiceTests {
    /// Runs `body` with a REST test client and a gRPC client, both on `harness`'s dependencies.
    static func withServers(
        _ harness: ServerHarness, _ body: @escaping @Sendable (any TestClientProtocol, KeyServiceClient) async throws -> Void
    ) async throws {
        try await harness.run { rest in
            let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
            let server = GRPCKeyServer(harness.dependencies, host: "127.0.0.1", port: 0) { continuation.yield($0) }
            let serving = Task { try await server.run() }
            defer { serving.cancel() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            let transport = try HTTP2ClientTransport.Posix(target: .ipv4(address: "127.0.0.1", port: port), transportSecurity: .plaintext)
            try await withGRPCClient(transport: transport) { client in
                try await body(rest, KeyServiceClient(wrapping: client))
            }
        }
    }

    static func metadata(_ member: Member) -> Metadata { ["authorization": .string(member.authorization)] }

    /// A full upload for `member`: signed prekey 1, `count` one-time prekeys and KEM prekeys, last-resort KEM 9999.
    static func upload(for member: Member, count: Int) throws -> Nova_Signal_E2ee_V1_UploadKeysRequest {
        let context = NullContext()
        let identity = try member.store.identityKeyPair(context: context)
        var request = Nova_Signal_E2ee_V1_UploadKeysRequest()
        request.deviceID = member.deviceId
        request.registrationID = try member.store.localRegistrationId(context: context)
        request.identityKey = identity.publicKey.serialize()
        let signed = SignedPreKeyRecord.generate(id: 1, timestamp: 0, signedBy: identity.privateKey)
        try member.store.storeSignedPreKey(signed, id: 1, context: context)
        request.signedPrekey.id = 1
        request.signedPrekey.publicKey = try signed.publicKey().serialize()
        request.signedPrekey.signature = Data(signed.signature)
        for id in 1...UInt32(max(count, 1)) where count > 0 {
            let preKey = PreKeyRecord.generate(id: id)
            try member.store.storePreKey(preKey, id: id, context: context)
            var entry = Nova_Signal_E2ee_V1_PreKey()
            entry.id = id
            entry.publicKey = try preKey.publicKey().serialize()
            request.prekeys.append(entry)
            request.kyberPrekeys.append(try kem(id: id, for: member, identity: identity.privateKey))
        }
        request.lastResortKyberPrekey = try kem(id: 9999, for: member, identity: identity.privateKey)
        return request
    }

    static func kem(id: UInt32, for member: Member, identity: PrivateKey) throws -> Nova_Signal_E2ee_V1_KyberPreKey {
        let record = KyberPreKeyRecord.generate(id: id, timestamp: 0, signedBy: identity)
        try member.store.storeKyberPreKey(record, id: id, context: NullContext())
        var entry = Nova_Signal_E2ee_V1_KyberPreKey()
        entry.id = id
        entry.publicKey = try record.publicKey().serialize()
        entry.signature = Data(record.signature)
        return entry
    }

    /// What a client does with the service's bundle.
    static func protocolBundle(_ bundle: Nova_Signal_E2ee_V1_PreKeyBundle) throws -> PreKeyBundle {
        PreKeyBundle(
            registrationId: bundle.registrationID, deviceId: bundle.deviceID,
            oneTimePreKey: bundle.hasOneTimeKey ? (bundle.oneTimeKey.id, try PublicKey([UInt8](bundle.oneTimeKey.publicKey))) : nil,
            signedPreKeyId: bundle.signedPrekey.id, signedPreKey: try PublicKey([UInt8](bundle.signedPrekey.publicKey)),
            signedPreKeySignature: [UInt8](bundle.signedPrekey.signature), identity: try IdentityKey(bytes: [UInt8](bundle.identityKey)),
            kyberPreKey: bundle.hasKyberPrekey
                ? (bundle.kyberPrekey.id, try KEMPublicKey([UInt8](bundle.kyberPrekey.publicKey)), bundle.kyberPrekey.signature)
                : nil)
    }

    /// The gRPC status code `body` fails with.
    static func code(_ body: () async throws -> Void) async -> RPCError.Code? {
        do {
            try await body()
            return nil
        } catch let error as RPCError {
            return error.code
        } catch {
            return .unknown
        }
    }

    @Test func keysUploadedOverGRPCOpenAPQXDHSessionAndShareTheRESTStore() async throws {
        try await Self.withServers(try ServerHarness()) { rest, keys in
            let alice = try await rest.register("alice")
            let bob = try await rest.register("bob")
            let uploaded = try await keys.uploadKeys(try Self.upload(for: bob, count: 3), metadata: Self.metadata(bob))
            #expect(uploaded.prekeyCount == 3 && uploaded.kyberPrekeyCount == 3)

            var ask = Nova_Signal_E2ee_V1_GetPreKeyBundleRequest()
            ask.userID = bob.accountId.uppercased()
            ask.deviceID = 1
            let bundle = try await keys.getPreKeyBundle(ask, metadata: Self.metadata(alice))
            #expect(bundle.userID == bob.accountId && bundle.hasOneTimeKey && bundle.hasKyberPrekey)
            #expect(bundle.oneTimeKey.id == 1 && bundle.kyberPrekey.id == 1)

            let context = NullContext()
            let bobAddress = try ProtocolAddress(name: bob.accountId, deviceId: 1)
            let aliceAddress = try ProtocolAddress(name: alice.accountId, deviceId: 1)
            try processPreKeyBundle(
                try Self.protocolBundle(bundle), for: bobAddress, sessionStore: alice.store,
                identityStore: alice.store, context: context)
            let message = try signalEncrypt(
                message: Array("over gRPC".utf8), for: bobAddress, sessionStore: alice.store,
                identityStore: alice.store, context: context)
            let plaintext = try signalDecryptPreKey(
                message: try PreKeySignalMessage(bytes: message.serialize()), from: aliceAddress, sessionStore: bob.store,
                identityStore: bob.store, preKeyStore: bob.store, signedPreKeyStore: bob.store, kyberPreKeyStore: bob.store,
                context: context)
            #expect(Array(plaintext) == Array("over gRPC".utf8))
            #expect(try bob.store.loadSession(for: aliceAddress, context: context)?.sessionVersion == 4)

            // One store under both doors: the claim shows in both counts, and REST hands out the next key.
            var countRequest = Nova_Signal_E2ee_V1_GetPreKeyCountRequest()
            countRequest.deviceID = 1
            let counts = try await keys.getPreKeyCount(countRequest, metadata: Self.metadata(bob))
            #expect(counts.prekeyCount == 2 && counts.kyberPrekeyCount == 2)
            let (_, body) = try await rest.call(.get, APIRoutes.keyCount, headers: bob.headers)
            #expect(try JSONDecoder().decode(PreKeyCountResponse.self, from: body) == PreKeyCountResponse(count: 2, kemCount: 2))
            let (_, restBundle) = try await rest.call(
                .get, APIRoutes.bundle(accountId: bob.accountId, deviceId: "1"), headers: alice.headers)
            #expect(try JSONDecoder().decode(PreKeyBundleResponse.self, from: restBundle).devices.first?.preKey?.keyId == 2)

            // Exhausted one-time keys: the last-resort KEM prekey, no one-time key.
            _ = try await keys.getPreKeyBundle(ask, metadata: Self.metadata(alice))
            let last = try await keys.getPreKeyBundle(ask, metadata: Self.metadata(alice))
            #expect(!last.hasOneTimeKey && last.kyberPrekey.id == 9999)
        }
    }

    @Test func devicesAreListedAndRemovedWithRESTsRules() async throws {
        try await Self.withServers(try ServerHarness()) { rest, keys in
            let bob = try await rest.register("bob")
            let (link, password) = DeviceTests.linkRequest(code: try await DeviceTests.issueCode(rest, for: bob))
            #expect(try await rest.call(.put, APIRoutes.linkDevice, json: link).0 == .created)
            let phone = Member(accountId: bob.accountId, deviceId: 2, password: password, store: InMemorySignalProtocolStore())

            let listed = try await keys.listDevices(Nova_Signal_E2ee_V1_ListDevicesRequest(), metadata: Self.metadata(phone))
            #expect(listed.devices.map(\.deviceID) == [1, 2])
            #expect(listed.devices.map(\.deviceName) == ["laptop", "phone"])
            #expect(listed.devices[1].registrationID == 77 && listed.devices[1].registeredAt > 0)

            var remove = Nova_Signal_E2ee_V1_RemoveDeviceRequest()
            remove.deviceID = 1
            #expect(await Self.code { _ = try await keys.removeDevice(remove, metadata: Self.metadata(bob)) } == .permissionDenied)
            remove.deviceID = 7
            #expect(await Self.code { _ = try await keys.removeDevice(remove, metadata: Self.metadata(bob)) } == .notFound)
            remove.deviceID = 2
            _ = try await keys.removeDevice(remove, metadata: Self.metadata(bob))
            #expect(
                try await keys.listDevices(Nova_Signal_E2ee_V1_ListDevicesRequest(), metadata: Self.metadata(bob)).devices.map(\.deviceID)
                    == [1])
            #expect(
                await Self.code {
                    _ = try await keys.listDevices(Nova_Signal_E2ee_V1_ListDevicesRequest(), metadata: Self.metadata(phone))
                } == .unauthenticated, "the removed device's credential is gone")
        }
    }

    @Test func malformedAndUnauthorizedCallsGetTheirStatusCodes() async throws {
        var limits = ServerLimits()
        limits.rateLimits.bundleFetch = TokenBucketPolicy(capacity: 2, refillPerSecond: 0.001)
        let harness = try ServerHarness(limits: limits)
        try await Self.withServers(harness) { rest, keys in
            let alice = try await rest.register("alice")
            let bob = try await rest.register("bob")
            let good = try Self.upload(for: bob, count: 2)
            func uploadCode(_ change: (inout Nova_Signal_E2ee_V1_UploadKeysRequest) -> Void, as member: Member? = nil) async -> RPCError
                .Code?
            {
                var request = good
                change(&request)
                return await Self.code { _ = try await keys.uploadKeys(request, metadata: member.map(Self.metadata) ?? [:]) }
            }
            #expect(await uploadCode({ _ in }) == .unauthenticated, "no credentials")
            let impostor = Member(accountId: bob.accountId, deviceId: 1, password: alice.password, store: bob.store)
            #expect(await uploadCode({ _ in }, as: impostor) == .unauthenticated, "wrong credentials")
            #expect(await uploadCode({ $0.signedPrekey.publicKey = Data([5, 1, 2]) }, as: bob) == .invalidArgument, "bad key bytes")
            #expect(await uploadCode({ $0.prekeys[0].publicKey = Data(repeating: 9, count: 33) }, as: bob) == .invalidArgument)
            #expect(await uploadCode({ $0.kyberPrekeys[1].publicKey.removeLast() }, as: bob) == .invalidArgument)
            #expect(await uploadCode({ $0.signedPrekey.signature[3] ^= 1 }, as: bob) == .invalidArgument, "wrong signature")
            #expect(await uploadCode({ $0.kyberPrekeys[0].signature = Data() }, as: bob) == .invalidArgument, "missing signature")
            #expect(await uploadCode({ $0.deviceID = 2 }, as: bob) == .invalidArgument, "another device's id")
            #expect(await uploadCode({ $0.identityKey = alice.store.publicIdentityKeyData }, as: bob) == .invalidArgument)
            #expect(
                await uploadCode({ $0.prekeys = Array(repeating: $0.prekeys[0], count: ServerLimits().keysPerUpload + 1) }, as: bob)
                    == .invalidArgument, "over the keys-per-upload limit")
            let oversized = await uploadCode(
                {
                    $0.kyberPrekeys = Array(repeating: $0.kyberPrekeys[0], count: ServerLimits().keyUploadBytes / 1_600 + 10)
                }, as: bob)
            #expect(oversized == .resourceExhausted, "a message over REST's upload size")
            // Nothing of the refused uploads was stored.
            var countRequest = Nova_Signal_E2ee_V1_GetPreKeyCountRequest()
            countRequest.deviceID = 1
            let counts = try await keys.getPreKeyCount(countRequest, metadata: Self.metadata(bob))
            #expect(counts.prekeyCount == 0 && counts.kyberPrekeyCount == 0)
            countRequest.deviceID = 2
            #expect(await Self.code { _ = try await keys.getPreKeyCount(countRequest, metadata: Self.metadata(bob)) } == .permissionDenied)

            #expect(try await keys.uploadKeys(good, metadata: Self.metadata(bob)).prekeyCount == 2)
            var ask = Nova_Signal_E2ee_V1_GetPreKeyBundleRequest()
            ask.deviceID = 1
            #expect(
                await Self.code { _ = try await keys.getPreKeyBundle(ask, metadata: Self.metadata(alice)) } == .invalidArgument,
                "no user_id")
            ask.userID = UUID().uuidString
            #expect(
                await Self.code { _ = try await keys.getPreKeyBundle(ask, metadata: Self.metadata(alice)) } == .notFound, "unknown user")
            ask.userID = bob.accountId
            ask.deviceID = 0
            #expect(await Self.code { _ = try await keys.getPreKeyBundle(ask, metadata: Self.metadata(alice)) } == .invalidArgument)
            ask.deviceID = 1
            _ = try await keys.getPreKeyBundle(ask, metadata: Self.metadata(alice))
            #expect(
                await Self.code { _ = try await keys.getPreKeyBundle(ask, metadata: Self.metadata(alice)) } == .resourceExhausted,
                "the bundle-fetch rate limit (2, the unknown user counted) is REST's")

            // Every call is counted by method and code.
            let (_, metrics) = try await rest.call(.get, APIRoutes.metrics)
            let text = String(decoding: metrics, as: UTF8.self)
            #expect(
                text.contains(#"parley_grpc_requests_total{method="UploadKeys",code="invalidArgument"}"#)
                    || text.contains(#"parley_grpc_requests_total{code="invalidArgument",method="UploadKeys"}"#))
        }
    }
}

extension InMemorySignalProtocolStore {
    /// The serialized public identity key.
    var publicIdentityKeyData: Data { (try? identityKeyPair(context: NullContext()).publicKey.serialize()) ?? Data() }
}
