import Foundation
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyProtocol
import ParleyServer
import Testing

/// Sender certificates: the server signs one for an authenticated device, leading to the trust root clients pin; the
/// key files in the data directory are made once, reloaded, and rotated with the trust root's key.
@Suite struct SenderCertificateTests {
    @Test func anAuthenticatedDeviceGetsACertificateThatValidatesAgainstTheTrustRoot() async throws {
        let harness = try ServerHarness()
        let settings = harness.dependencies.sealedSender
        try await harness.run { client in
            let alice = try await client.register("alice")
            // Registration tells the new account the trust root too.
            let (registered, registeredBody) = try await client.call(
                .post, APIRoutes.accounts,
                json: RegisterAccountRequest(
                    username: "carol", identityKey: IdentityKeyPair.generate().publicKey.serialize().base64EncodedString(),
                    registrationId: 9, password: Data(repeating: 7, count: 32).base64EncodedString(), deviceName: "phone"))
            #expect(registered == .created)
            let told = try JSONDecoder().decode(RegisterAccountResponse.self, from: registeredBody).sealedSenderTrustRoot
            #expect(told == settings.trustRoot.serialize().base64EncodedString())
            let (rootStatus, rootBody) = try await client.call(.get, APIRoutes.sealedSenderTrustRoot)
            #expect(rootStatus == .ok)
            let trustRoot = try PublicKey(
                try #require(Data(base64Encoded: try JSONDecoder().decode(SealedSenderTrustRootResponse.self, from: rootBody).trustRoot)))
            #expect(trustRoot == settings.trustRoot)

            let (status, body) = try await client.call(.get, APIRoutes.deliveryCertificate, headers: alice.headers)
            #expect(status == .ok)
            let encoded = try JSONDecoder().decode(DeliveryCertificateResponse.self, from: body).certificate
            let certificate = try SenderCertificate(try #require(Data(base64Encoded: encoded)))
            let now = UInt64(Date().timeIntervalSince1970 * 1000)
            #expect(certificate.validate(trustRoot: trustRoot, time: now))
            #expect(certificate.senderAci == Aci(fromUUID: try #require(UUID(uuidString: alice.accountId))))
            #expect(certificate.deviceId == 1 && certificate.senderE164 == nil)
            #expect(certificate.publicKey == (try alice.store.identityKeyPair(context: NullContext()).publicKey))
            #expect(certificate.expiration > now + 23 * 3600 * 1000 && certificate.expiration <= now + 24 * 3600 * 1000 + 60_000)
            #expect(!certificate.validate(trustRoot: trustRoot, time: certificate.expiration + 1), "it expires after a day")
            #expect(!certificate.validate(trustRoot: PrivateKey.generate().publicKey, time: now))

            #expect(try await client.call(.get, APIRoutes.deliveryCertificate).0 == .unauthorized)
            var wrong = alice.headers
            wrong[.authorization] = "Basic " + Data("\(alice.accountId).1:wrong".utf8).base64EncodedString()
            #expect(try await client.call(.get, APIRoutes.deliveryCertificate, headers: wrong).0 == .unauthorized)
        }
    }

    @Test func keyFilesAreMadeOnceReloadedAndRotated() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-ss-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try SealedSenderKeyFiles.load(in: directory)
        #expect(first.serverCertificate.keyId == 1 && first.serverCertificate.isSigned(by: first.trustRoot))
        let again = try SealedSenderKeyFiles.load(in: directory)
        #expect(again.trustRoot == first.trustRoot && again.serverCertificate.serialize() == first.serverCertificate.serialize())
        let keyPath = directory.appendingPathComponent("sealed-sender-server.key").path
        let mode = try FileManager.default.attributesOfItem(atPath: keyPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        // The trust root goes offline: serving goes on, rotating needs the key back.
        let rootKey = directory.appendingPathComponent("sealed-sender-trust-root.key")
        let offline = directory.appendingPathComponent("offline-root.key")
        try FileManager.default.moveItem(at: rootKey, to: offline)
        #expect(try SealedSenderKeyFiles.load(in: directory).trustRoot == first.trustRoot)
        #expect(throws: SealedSenderSettingsError.self) { try SealedSenderKeyFiles.rotate(in: directory) }
        let rotated = try SealedSenderKeyFiles.rotate(in: directory, trustRootKeyFile: offline)
        #expect(rotated.serverCertificate.keyId == 2 && rotated.trustRoot == first.trustRoot)
        #expect(rotated.serverCertificate.publicKey != first.serverCertificate.publicKey)
        #expect(try SealedSenderKeyFiles.load(in: directory).serverCertificate.keyId == 2)
        #expect(throws: SealedSenderSettingsError.self) {
            try SealedSenderKeyFiles.rotate(in: directory, trustRootKeyFile: directory.appendingPathComponent("sealed-sender-server.key"))
        }

        // A damaged certificate is reported, not replaced.
        try Data([1, 2, 3]).write(to: directory.appendingPathComponent("sealed-sender-server.cert"))
        #expect(throws: SealedSenderSettingsError.self) { try SealedSenderKeyFiles.load(in: directory) }
    }
}
