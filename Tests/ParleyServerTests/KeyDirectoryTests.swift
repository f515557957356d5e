import Foundation
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyProtocol
import ParleyServer
import Testing

@Suite struct KeyDirectoryTests {
    @Test func registeredDevicesAuthenticateAndListThemselves() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("Alice")
            #expect(alice.accountId == alice.accountId.lowercased() && UUID(uuidString: alice.accountId) != nil)
            let (status, body) = try await client.call(.get, APIRoutes.devices, headers: alice.headers)
            #expect(status == .ok)
            let list = try JSONDecoder().decode(DeviceListResponse.self, from: body)
            #expect(list.devices.map(\.deviceId) == [1] && list.devices[0].name == "laptop")
            var wrong = alice.headers
            wrong[.authorization] = "Basic " + Data("\(alice.accountId).1:not-the-password".utf8).base64EncodedString()
            #expect(try await client.call(.get, APIRoutes.devices, headers: wrong).0 == .unauthorized)
            #expect(try await client.call(.get, APIRoutes.devices).0 == .unauthorized)
        }
    }

    @Test func usernamesAreUniqueIgnoringCase() async throws {
        try await ServerHarness().run { client in
            _ = try await client.register("Bob")
            await #expect(throws: HarnessError.self) { _ = try await client.register("bOB") }
        }
    }

    @Test func bundleFromTheServerSetsUpAWorkingPQXDHSession() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            try await client.uploadKeys(for: bob, count: 3)
            let (status, body) = try await client.call(
                .get, APIRoutes.bundle(accountId: bob.accountId, deviceId: "1"), headers: alice.headers)
            #expect(status == .ok)
            let response = try JSONDecoder().decode(PreKeyBundleResponse.self, from: body)
            let device = try #require(response.devices.first)
            let bundle = try PreKeyBundle(response, device: device)
            let bobAddress = try ProtocolAddress(name: bob.accountId, deviceId: 1)
            let aliceAddress = try ProtocolAddress(name: alice.accountId, deviceId: 1)
            let context = NullContext()
            try processPreKeyBundle(bundle, for: bobAddress, sessionStore: alice.store, identityStore: alice.store, context: context)
            let message = try signalEncrypt(
                message: Array("via the server".utf8), for: bobAddress, sessionStore: alice.store,
                identityStore: alice.store, context: context)
            let plaintext = try signalDecryptPreKey(
                message: try PreKeySignalMessage(bytes: message.serialize()), from: aliceAddress, sessionStore: bob.store,
                identityStore: bob.store, preKeyStore: bob.store, signedPreKeyStore: bob.store, kyberPreKeyStore: bob.store,
                context: context)
            #expect(Array(plaintext) == Array("via the server".utf8))
            #expect(try bob.store.loadSession(for: aliceAddress, context: context)?.sessionVersion == 4)
        }
    }

    @Test func oneTimeKeysAreClaimedOnceThenLastResort() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            try await client.uploadKeys(for: bob, count: 2)
            var oneTime: [UInt32?] = []
            var kem: [UInt32?] = []
            for _ in 0..<3 {
                let (_, body) = try await client.call(
                    .get, APIRoutes.bundle(accountId: bob.accountId, deviceId: "*"), headers: alice.headers)
                let device = try JSONDecoder().decode(PreKeyBundleResponse.self, from: body).devices[0]
                oneTime.append(device.preKey?.keyId)
                kem.append(device.kemPreKey?.keyId)
            }
            #expect(oneTime == [1, 2, nil])
            #expect(kem == [1, 2, 9999])
            let (_, counts) = try await client.call(.get, APIRoutes.keyCount, headers: bob.headers)
            #expect(try JSONDecoder().decode(PreKeyCountResponse.self, from: counts) == PreKeyCountResponse(count: 0, kemCount: 0))
        }
    }

    @Test func concurrentFetchesNeverShareAOneTimeKey() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            try await client.uploadKeys(for: bob, count: 10)
            let claimed = try await withThrowingTaskGroup(of: UInt32?.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        let (_, body) = try await client.call(
                            .get, APIRoutes.bundle(accountId: bob.accountId, deviceId: "1"), headers: alice.headers)
                        return try JSONDecoder().decode(PreKeyBundleResponse.self, from: body).devices[0].preKey?.keyId
                    }
                }
                return try await group.reduce(into: [UInt32?]()) { $0.append($1) }
            }
            let keys = claimed.compactMap { $0 }
            #expect(keys.count == 10 && Set(keys).count == 10)
            #expect(claimed.filter { $0 == nil }.count == 6)
        }
    }

    @Test func kemKeyIdsCannotBeSharedBetweenOneTimeAndLastResort() async throws {
        try await ServerHarness().run { client in
            let bob = try await client.register("bob")
            try await client.uploadKeys(for: bob, count: 1)
            let identity = try bob.store.identityKeyPair(context: NullContext()).privateKey
            let clash = KyberPreKeyRecord.generate(id: 9999, timestamp: 0, signedBy: identity)
            let b64 = { (bytes: Data) in bytes.base64EncodedString() }
            let entity = SignedPreKeyEntity(keyId: 9999, publicKey: b64(try clash.publicKey().serialize()), signature: b64(clash.signature))
            let upload = UploadKeysRequest(signedPreKey: nil, preKeys: nil, kemPreKeys: [entity], lastResortKemPreKey: nil)
            let (status, _) = try await client.call(.put, APIRoutes.keys, headers: bob.headers, json: upload)
            #expect(status == .badRequest)
            let both = UploadKeysRequest(signedPreKey: nil, preKeys: nil, kemPreKeys: [entity], lastResortKemPreKey: entity)
            #expect(try await client.call(.put, APIRoutes.keys, headers: bob.headers, json: both).0 == .badRequest)
        }
    }

    @Test func badSignaturesAreRejectedAndNothingIsStored() async throws {
        try await ServerHarness().run { client in
            let bob = try await client.register("bob")
            let other = PrivateKey.generate()
            let signed = SignedPreKeyRecord.generate(id: 1, timestamp: 0, signedBy: other)
            let b64 = { (bytes: Data) in bytes.base64EncodedString() }
            let upload = UploadKeysRequest(
                signedPreKey: SignedPreKeyEntity(
                    keyId: 1, publicKey: b64(try signed.publicKey().serialize()), signature: b64(signed.signature)),
                preKeys: nil, kemPreKeys: nil, lastResortKemPreKey: nil)
            let (status, body) = try await client.call(.put, APIRoutes.keys, headers: bob.headers, json: upload)
            #expect(status == .badRequest)
            #expect(try JSONDecoder().decode(APIErrorBody.self, from: body).code == "bad_request")
            let (fetch, _) = try await client.call(.get, APIRoutes.bundle(accountId: bob.accountId, deviceId: "1"), headers: bob.headers)
            #expect(fetch == .notFound)
        }
    }
}
