import AsyncHTTPClient
import Foundation
import ParleyAPI
import ParleyProtocol
import Testing

@testable import ParleyKit

/// parley-server's gRPC key service against an independent client: Python's grpcio with stubs that grpcio-tools
/// generates from `Protos/ParleyGRPC/signal_e2ee.proto`, keys made by python-xeddsa (X25519, XEdDSA) and kyber-py
/// (ML-KEM-1024). The Python device uploads its keys over gRPC and fetches its own bundle as Alice's device; with that
/// bundle ParleyProtocol opens a PQXDH session that the Python-made private keys, loaded into a ParleyProtocol store,
/// then open on the other side.
@Suite struct GRPCInteropTests {
    struct PythonReport: Decodable {
        struct Key: Decodable {
            let id: UInt32
            let publicKey: String?
            let signature: String?
        }
        struct PrivateKeyEntry: Decodable {
            let id: UInt32
            let `private`: String
        }
        struct SignedKey: Decodable {
            let id: UInt32
            let `private`: String
            let signature: String
        }
        struct KEMKey: Decodable {
            let id: UInt32
            let seed: String
            let signature: String
        }
        struct Identity: Decodable {
            let `public`: String
            let `private`: String
        }
        struct Counts: Decodable {
            let prekeyCount: UInt32
            let kyberPrekeyCount: UInt32
        }
        struct Device: Decodable {
            let deviceId: UInt32
            let name: String
            let registrationId: UInt32
        }
        struct Bundle: Decodable {
            let userId: String
            let deviceId: UInt32
            let registrationId: UInt32
            let identityKey: String
            let signedPreKey: Key
            let oneTimeKey: Key?
            let kyberPreKey: Key
        }

        let accountId: String
        let registrationId: UInt32
        let identity: Identity
        let signedPreKey: SignedKey
        let preKeys: [PrivateKeyEntry]
        let kemPreKeys: [KEMKey]
        let uploaded: Counts
        let counts: Counts
        let devices: [Device]
        let bundle: Bundle
        let malformed: [String: String]
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func bytes(_ base64: String?) -> [UInt8] { [UInt8](Data(base64Encoded: base64 ?? "") ?? Data()) }

    /// Runs the Python client; its JSON report.
    static func runPython(_ arguments: [String]) async throws -> PythonReport {
        let python =
            ProcessInfo.processInfo.environment["PARLEY_PYTHON"] ?? packageRoot.appendingPathComponent(".build/python/bin/python3").path
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [packageRoot.appendingPathComponent("Scripts/interop/grpc_key_client.py").path] + arguments
        let run = try await ProcessRun.run(process)
        guard run.status == 0 else {
            Issue.record("grpc_key_client.py exited \(run.status): \(run.stderr)")
            throw ServerProcessError.didNotStart
        }
        return try JSONDecoder().decode(PythonReport.self, from: Data(run.stdout.utf8))
    }

    /// A self-signed certificate for "localhost" and 127.0.0.1 (openssl), with its key; the paths.
    static func makeCertificate(in directory: String) async throws -> (certificate: String, key: String) {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let certificate = directory + "/grpc-cert.pem"
        let key = directory + "/grpc-key.pem"
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key,
            "-out", certificate, "-days", "1", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        await process.exited()
        guard process.terminationStatus == 0 else { throw ServerProcessError.didNotStart }
        return (certificate, key)
    }

    @Test func pythonGRPCClientUploadsKeysWhoseBundleOpensAPQXDHSession() async throws {
        try await Self.uploadFetchAndOpenSession(tls: false)
    }

    @Test func theSameOverTLS() async throws {
        try await Self.uploadFetchAndOpenSession(tls: true)
    }

    static func uploadFetchAndOpenSession(tls: Bool) async throws {
        let directory = NSTemporaryDirectory() + "parley-grpc-\(UUID())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var arguments = ["--data-directory", directory, "--grpc-port", "0"]
        var tlsArguments: [String] = []
        if tls {
            let files = try await makeCertificate(in: directory + "-tls")
            arguments += ["--grpc-tls-certificate", files.certificate, "--grpc-tls-key", files.key]
            tlsArguments = [files.certificate]
        }
        defer { try? FileManager.default.removeItem(atPath: directory + "-tls") }
        let server = try await ServerProcess(arguments: arguments)
        defer { server.stop() }
        let grpcPort = try #require(server.grpcPort)

        // Alice: a ParleyProtocol identity, registered over REST.
        let alice = InMemorySignalProtocolStore()
        let context = NullContext()
        let password = DeviceCredentials.makePassword()
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let api = ParleyServerClient(baseURL: server.baseURL, http: http)
        let registered: RegisterAccountResponse
        do {
            registered = try await api.register(
                RegisterAccountRequest(
                    username: "alice",
                    identityKey: Data(try alice.identityKeyPair(context: context).publicKey.serialize()).base64EncodedString(),
                    registrationId: try alice.localRegistrationId(context: context), password: password, deviceName: nil))
            try await http.shutdown()
        } catch {
            try? await http.shutdown()
            throw error
        }

        let report = try await runPython(
            [
                packageRoot.appendingPathComponent("Protos/ParleyGRPC").path, server.baseURL, "127.0.0.1:\(grpcPort)", "pybob",
                registered.accountId, password,
            ] + tlsArguments)

        // Every malformed call got its status code, and none of them stored anything.
        #expect(
            report.malformed == [
                "no_credentials": "UNAUTHENTICATED", "wrong_password": "UNAUTHENTICATED", "bad_key_bytes": "INVALID_ARGUMENT",
                "wrong_signature": "INVALID_ARGUMENT", "too_many_prekeys": "INVALID_ARGUMENT", "oversized_message": "RESOURCE_EXHAUSTED",
                "unknown_user": "NOT_FOUND", "other_device_count": "PERMISSION_DENIED",
            ])
        #expect(report.uploaded.prekeyCount == 2 && report.uploaded.kyberPrekeyCount == 2)
        #expect(report.counts.prekeyCount == 2 && report.counts.kyberPrekeyCount == 2)
        #expect(report.devices.map(\.deviceId) == [1] && report.devices.first?.name == "python-grpcio")

        // The bundle as grpcio received it: the keys the Python device made, with the first one-time keys claimed.
        let bundle = report.bundle
        #expect(bundle.userId == report.accountId && bundle.deviceId == 1 && bundle.registrationId == report.registrationId)
        #expect(bundle.identityKey == report.identity.public)
        #expect(bundle.signedPreKey.id == 7 && bundle.oneTimeKey?.id == 100 && bundle.kyberPreKey.id == 200)

        // Bob's side: a ParleyProtocol store holding the Python-made private keys.
        let bob = InMemorySignalProtocolStore(
            identity: IdentityKeyPair(
                publicKey: try PublicKey(bytes(report.identity.public)),
                privateKey: try PrivateKey(bytes(report.identity.private))),
            registrationId: report.registrationId)
        try bob.storeSignedPreKey(
            SignedPreKeyRecord(
                id: 7, timestamp: 0, privateKey: try PrivateKey(bytes(report.signedPreKey.private)),
                signature: bytes(report.signedPreKey.signature)), id: 7, context: context)
        for key in report.preKeys {
            try bob.storePreKey(PreKeyRecord(id: key.id, privateKey: try PrivateKey(bytes(key.private))), id: key.id, context: context)
        }
        for key in report.kemPreKeys {
            let pair = KEMKeyPair(secretKey: try KEMSecretKey([0x0A] + bytes(key.seed)))
            if key.id == bundle.kyberPreKey.id {
                #expect(
                    Array(pair.publicKey.serialize()) == bytes(bundle.kyberPreKey.publicKey),
                    "swift-crypto derives kyber-py's ML-KEM-1024 public key from the same seed")
            }
            try bob.storeKyberPreKey(
                KyberPreKeyRecord(id: key.id, timestamp: 0, keyPair: pair, signature: bytes(key.signature)),
                id: key.id, context: context)
        }

        // Alice opens a PQXDH session from the gRPC bundle (checking both XEdDSA signatures python-xeddsa made).
        let protocolBundle = PreKeyBundle(
            registrationId: bundle.registrationId, deviceId: bundle.deviceId,
            oneTimePreKey: try bundle.oneTimeKey.map { ($0.id, try PublicKey(bytes($0.publicKey))) },
            signedPreKeyId: bundle.signedPreKey.id, signedPreKey: try PublicKey(bytes(bundle.signedPreKey.publicKey)),
            signedPreKeySignature: bytes(bundle.signedPreKey.signature), identity: try IdentityKey(bytes: bytes(bundle.identityKey)),
            kyberPreKey: (
                bundle.kyberPreKey.id, try KEMPublicKey(bytes(bundle.kyberPreKey.publicKey)), Data(bytes(bundle.kyberPreKey.signature))
            ))
        let bobAddress = try ProtocolAddress(name: report.accountId, deviceId: 1)
        let aliceAddress = try ProtocolAddress(name: registered.accountId, deviceId: 1)
        try processPreKeyBundle(protocolBundle, for: bobAddress, sessionStore: alice, identityStore: alice, context: context)
        let message = try signalEncrypt(
            message: Array("from a grpcio bundle".utf8), for: bobAddress, sessionStore: alice,
            identityStore: alice, context: context)
        #expect(message.messageType == .preKey)
        let plaintext = try signalDecryptPreKey(
            message: try PreKeySignalMessage(bytes: message.serialize()), from: aliceAddress, sessionStore: bob,
            identityStore: bob, preKeyStore: bob, signedPreKeyStore: bob, kyberPreKeyStore: bob, context: context)
        #expect(Array(plaintext) == Array("from a grpcio bundle".utf8))
        #expect(try bob.loadSession(for: aliceAddress, context: context)?.sessionVersion == 4)

        // And back: Bob answers on the session, Alice reads it.
        let reply = try signalEncrypt(
            message: Array("and back".utf8), for: aliceAddress, sessionStore: bob, identityStore: bob, context: context)
        let read = try signalDecrypt(
            message: try SignalMessage(bytes: reply.serialize()), from: bobAddress, sessionStore: alice,
            identityStore: alice, context: context)
        #expect(Array(read) == Array("and back".utf8))
    }
}
