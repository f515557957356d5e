import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ParleyAPI
import ParleyProtocol
import ParleyServer
import ParleyTestSupport

/// A real server application on a fresh store, driven through Hummingbird's test client.
///
/// The backend is SQLite (a temporary file) unless `PARLEY_SERVER_BACKEND=postgres`, which gives each harness its own
/// database on the PostgreSQL at `PARLEY_TEST_DATABASE_URL` (`make test` runs the suite both ways).
struct ServerHarness {
    let directory: URL
    let store: any ServerStore
    let dependencies: ServerDependencies
    private let database: TestDatabase?

    /// The operator credential every harness configures.
    static let operatorToken = "operator-token-for-tests"

    init(
        limits: ServerLimits = ServerLimits(), strictSeen: Bool = false, backup: BackupSettings? = nil,
        registration: RegistrationMode = .open
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if ProcessInfo.processInfo.environment["PARLEY_SERVER_BACKEND"] == "postgres" {
            let database = try TestDatabase()
            self.database = database
            store = try PostgresStore(url: database.url, logger: Logger(label: "test-postgres"))
        } else {
            database = nil
            store = try SQLiteStore(path: directory.appendingPathComponent("server.sqlite").path)
        }
        var contentDetection = ContentDetectionSettings(
            importDirectory: directory.appendingPathComponent("imports"), decoyKey: Array(repeating: 7, count: 32),
            operatorToken: Self.operatorToken)
        contentDetection.strictSeen = strictSeen
        contentDetection.importChunkSize = 100
        dependencies = ServerDependencies(
            store: store, attachments: try AttachmentStore(directory: directory.appendingPathComponent("attachments")),
            hasher: CredentialHasher(), limits: limits, contentDetection: contentDetection, backup: backup,
            registration: registration)
    }

    /// Runs `body` against the application (the router and middleware exactly as `parley-server` serves them).
    func run(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await withBackend {
            let app = Application(router: ParleyServerApplication.makeRouter(dependencies))
            try await app.test(.router, body)
        }
    }

    /// Runs `body` against the full server (HTTP and WebSocket) listening on a loopback port.
    func runLive(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await withBackend {
            let app = ParleyServerApplication.make(dependencies, port: 0)
            try await app.test(.live, body)
        }
    }

    /// Runs the backend around `body` (PostgreSQL: a fresh database, the pool and its migrations), then cleans up.
    private func withBackend(_ body: @escaping @Sendable () async throws -> Void) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let database, let postgres = store as? PostgresStore else { return try await body() }
        try await database.create()
        let pool = Task { try await postgres.run() }
        do {
            try await postgres.migrate()
            try await body()
        } catch {
            pool.cancel()
            try? await database.drop()
            throw error
        }
        pool.cancel()
        try await database.drop()
    }
}

/// One registered device with its protocol identity and credentials.
struct Member: Sendable {
    let accountId: String
    let deviceId: UInt32
    let password: String
    let store: InMemorySignalProtocolStore

    var authorization: String { "Basic " + Data("\(accountId).\(deviceId):\(password)".utf8).base64EncodedString() }
    var headers: HTTPFields { [.authorization: authorization, .contentType: "application/json"] }
}

extension TestClientProtocol {
    /// Sends JSON and returns status and body.
    func call(
        _ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields = [.contentType: "application/json"],
        json: (some Encodable)? = Optional<String>.none, raw: String? = nil
    ) async throws -> (HTTPResponse.Status, Data) {
        var body: ByteBuffer?
        if let raw { body = ByteBuffer(string: raw) } else if let json { body = ByteBuffer(bytes: try JSONEncoder().encode(json)) }
        return try await execute(uri: uri, method: method, headers: headers, body: body) { response in
            (response.status, Data(response.body.readableBytesView))
        }
    }

    /// Registers `username` with a fresh identity; returns the member.
    func register(_ username: String) async throws -> Member {
        let store = InMemorySignalProtocolStore()
        let identity = try store.identityKeyPair(context: NullContext())
        let password = Data((0..<24).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let request = RegisterAccountRequest(
            username: username, identityKey: identity.publicKey.serialize().base64EncodedString(),
            registrationId: try store.localRegistrationId(context: NullContext()), password: password, deviceName: "laptop")
        let (status, body) = try await call(.post, APIRoutes.accounts, json: request)
        guard status == .created else { throw HarnessError.unexpected(status, body) }
        let response = try JSONDecoder().decode(RegisterAccountResponse.self, from: body)
        return Member(accountId: response.accountId, deviceId: response.deviceId, password: password, store: store)
    }

    /// Generates and uploads a signed prekey, `count` one-time prekeys, `count` KEM prekeys and a last-resort KEM prekey.
    func uploadKeys(for member: Member, count: Int) async throws {
        let context = NullContext()
        let identity = try member.store.identityKeyPair(context: context).privateKey
        let b64 = { (bytes: Data) in bytes.base64EncodedString() }
        let signed = SignedPreKeyRecord.generate(id: 1, timestamp: 0, signedBy: identity)
        try member.store.storeSignedPreKey(signed, id: 1, context: context)
        var preKeys: [PreKeyEntity] = []
        var kemKeys: [SignedPreKeyEntity] = []
        for id in 1...UInt32(max(count, 1)) where count > 0 {
            let preKey = PreKeyRecord.generate(id: id)
            try member.store.storePreKey(preKey, id: id, context: context)
            preKeys.append(PreKeyEntity(keyId: id, publicKey: b64(try preKey.publicKey().serialize())))
            let kem = KyberPreKeyRecord.generate(id: id, timestamp: 0, signedBy: identity)
            try member.store.storeKyberPreKey(kem, id: id, context: context)
            kemKeys.append(SignedPreKeyEntity(keyId: id, publicKey: b64(try kem.publicKey().serialize()), signature: b64(kem.signature)))
        }
        let lastResort = KyberPreKeyRecord.generate(id: 9999, timestamp: 0, signedBy: identity)
        try member.store.storeKyberPreKey(lastResort, id: 9999, context: context)
        let upload = UploadKeysRequest(
            signedPreKey: SignedPreKeyEntity(
                keyId: 1, publicKey: b64(try signed.publicKey().serialize()), signature: b64(signed.signature)),
            preKeys: preKeys, kemPreKeys: kemKeys,
            lastResortKemPreKey: SignedPreKeyEntity(
                keyId: 9999, publicKey: b64(try lastResort.publicKey().serialize()), signature: b64(lastResort.signature)))
        let (status, body) = try await call(.put, APIRoutes.keys, headers: member.headers, json: upload)
        guard status == .noContent else { throw HarnessError.unexpected(status, body) }
    }
}

extension PreKeyBundle {
    /// The protocol bundle for one device of a bundle response (what a client does with the server's answer).
    init(_ response: PreKeyBundleResponse, device: DeviceBundle) throws {
        let bytes = { (text: String) in [UInt8](Data(base64Encoded: text) ?? Data()) }
        self.init(
            registrationId: device.registrationId, deviceId: device.deviceId,
            oneTimePreKey: try device.preKey.map { ($0.keyId, try PublicKey(bytes($0.publicKey))) },
            signedPreKeyId: device.signedPreKey.keyId, signedPreKey: try PublicKey(bytes(device.signedPreKey.publicKey)),
            signedPreKeySignature: bytes(device.signedPreKey.signature), identity: try IdentityKey(bytes: bytes(response.identityKey)),
            kyberPreKey: try device.kemPreKey.map { ($0.keyId, try KEMPublicKey(bytes($0.publicKey)), Data(bytes($0.signature))) })
    }
}

enum HarnessError: Error {
    case unexpected(HTTPResponse.Status, Data)
}
