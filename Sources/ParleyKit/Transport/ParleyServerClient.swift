import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ParleyAPI
import ParleyHTTP

/// The Parley server's REST API over shared HTTP connection pools.
///
/// Stateless apart from the pools: every authenticated call names the ``DeviceCredentials`` it acts as,
/// so one client serves many devices (the load tool, tests) as well as one (the app). Requests that must not say who
/// sends — sealed sends, bundle fetches and typing indicators with an access key, attachment downloads — can go over a
/// pool of their own (`unidentifiedHTTP`), so none rides a kept-alive connection that just carried this device's
/// `Authorization` header or a request naming it (Signal keeps a second, unidentified socket for the same reason).
public struct ParleyServerClient: Sendable {
    /// The server's base URL, such as `http://127.0.0.1:8080`.
    public let baseURL: String
    let http: HTTPClient
    /// The pool of requests that must not say who sends.
    let unidentifiedHTTP: HTTPClient
    private let timeout: TimeAmount

    /// A client of the server at `baseURL` over `http`, and over `unidentifiedHTTP` for requests that must not say who
    /// sends (`http` too when not given); the caller owns their lifetimes.
    public init(baseURL: String, http: HTTPClient, unidentifiedHTTP: HTTPClient? = nil, timeout: TimeAmount = .seconds(30)) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.http = http
        self.unidentifiedHTTP = unidentifiedHTTP ?? http
        self.timeout = timeout
    }

    /// The same server and connection pools with another per-request timeout.
    public func with(timeout: TimeAmount) -> ParleyServerClient {
        ParleyServerClient(baseURL: baseURL, http: http, unidentifiedHTTP: unidentifiedHTTP, timeout: timeout)
    }

    /// Registers an account with its first device (id 1).
    public func register(_ request: RegisterAccountRequest) async throws -> RegisterAccountResponse {
        try await call(.POST, APIRoutes.accounts, body: request, as: nil, expecting: [201])
    }

    /// A sender certificate for `device` (sealed sender), and the base64 it came as.
    public func deliveryCertificate(as device: DeviceCredentials) async throws -> DeliveryCertificateResponse {
        try await call(.GET, APIRoutes.deliveryCertificate, as: device, expecting: [200])
    }

    /// The account registered under `username`.
    public func lookup(username: String, as device: DeviceCredentials) async throws -> AccountLookupResponse {
        try await call(.GET, APIRoutes.lookup(username: Self.pathComponent(username)), as: device, expecting: [200])
    }

    /// The calling account as the server knows it, and whether the server retired plain account names.
    public func whoami(as device: DeviceCredentials) async throws -> AccountIdentityResponse {
        try await call(.GET, APIRoutes.whoami, as: device, expecting: [200])
    }

    /// The plain name of account `accountId` (`nil` in the answer for an account that goes by a username).
    public func account(_ accountId: String, as device: DeviceCredentials) async throws -> AccountLookupResponse {
        try await call(.GET, APIRoutes.account(accountId), as: device, expecting: [200])
    }

    /// The account's devices.
    public func devices(as device: DeviceCredentials) async throws -> DeviceListResponse {
        try await call(.GET, APIRoutes.devices, as: device, expecting: [200])
    }

    /// Removes device `deviceId` of the account (the primary removes any other device, a linked device only itself).
    public func removeDevice(_ deviceId: UInt32, as device: DeviceCredentials) async throws {
        _ = try await send(.DELETE, APIRoutes.device(deviceId), body: nil, as: device, expecting: [204])
    }

    /// Issues a one-time code for linking a new device (primary device only).
    public func issueLinkCode(as device: DeviceCredentials) async throws -> LinkCodeResponse {
        try await call(.POST, APIRoutes.linkCode, as: device, expecting: [201])
    }

    /// Joins an account with a link code; answers the new device's ids.
    public func link(_ request: LinkDeviceRequest) async throws -> RegisterAccountResponse {
        try await call(.PUT, APIRoutes.linkDevice, body: request, as: nil, expecting: [201])
    }

    /// Leaves an encrypted provisioning envelope for a new device at `address` (primary device only).
    public func putProvisioningMessage(_ envelope: [UInt8], at address: String, as device: DeviceCredentials) async throws {
        _ = try await send(
            .PUT, APIRoutes.provisioning(address),
            body: try JSONEncoder().encode(ProvisioningMessage(body: Data(envelope).base64EncodedString())),
            as: device, expecting: [204])
    }

    /// Takes the provisioning envelope at `address`, or `nil` when none is there yet (no authentication).
    public func takeProvisioningMessage(at address: String) async throws -> [UInt8]? {
        let (status, body) = try await send(.GET, APIRoutes.provisioning(address), body: nil, as: nil, expecting: [200, 404])
        guard status == 200 else { return nil }
        guard let envelope = Data(base64Encoded: try decode(ProvisioningMessage.self, body).body) else {
            throw ParleyError.server(.malformedResponse("provisioning message body is not base64"))
        }
        return Array(envelope)
    }

    /// What the server's hash banks hold of `hash` (64 lowercase hex).
    public func checkHash(_ hash: String, as device: DeviceCredentials) async throws -> HashCheckResult {
        try await call(.POST, ContentDetectionRoutes.contains, body: HashCheckRequest(hash: hash), as: device, expecting: [200])
    }

    /// What the server's hash banks hold of each of up to 1,000 hashes.
    public func checkHashes(_ hashes: [String], as device: DeviceCredentials) async throws -> BatchHashCheckResponse {
        try await call(
            .POST, ContentDetectionRoutes.batchContains, body: BatchHashCheckRequest(hashes: hashes), as: device, expecting: [200])
    }

    /// Records `hash` in the `seen` bank (after a successful send).
    public func storeHash(_ hash: String, as device: DeviceCredentials) async throws {
        _ = try await send(
            .POST, ContentDetectionRoutes.store, body: try JSONEncoder().encode(HashCheckRequest(hash: hash)), as: device,
            expecting: [204])
    }

    /// The blocking banks' suffixes (with decoys) for a 5-digit prefix.
    public func hashPrefix(_ prefix: String, as device: DeviceCredentials) async throws -> HashPrefixResponse {
        try await call(.GET, ContentDetectionRoutes.prefix(prefix), as: device, expecting: [200])
    }

    /// Removes `hash` from `bank` with the operator credential.
    public func deleteHash(_ hash: String, bank: String, operatorToken: String) async throws {
        _ = try await send(
            .DELETE, ContentDetectionRoutes.hash(hash, bank: bank), body: nil, as: nil, expecting: [204],
            extraHeaders: [("Authorization", Self.bearer(operatorToken))])
    }

    /// Adds `hash` to `bank` with the operator credential.
    public func putHash(_ hash: String, bank: String, operatorToken: String) async throws {
        _ = try await send(
            .PUT, ContentDetectionRoutes.hash(hash, bank: bank), body: nil, as: nil, expecting: [204],
            extraHeaders: [("Authorization", Self.bearer(operatorToken))])
    }

    /// Uploads prekeys.
    public func uploadKeys(_ request: UploadKeysRequest, as device: DeviceCredentials) async throws {
        _ = try await send(.PUT, APIRoutes.keys, body: try JSONEncoder().encode(request), as: device, expecting: [204])
    }

    /// One-time keys the server still holds for the device.
    public func preKeyCount(as device: DeviceCredentials) async throws -> PreKeyCountResponse {
        try await call(.GET, APIRoutes.keyCount, as: device, expecting: [200])
    }

    /// Prekey bundles of `accountId`'s device `deviceId`, or of all its devices when `nil`.
    public func bundle(accountId: String, deviceId: UInt32?, as device: DeviceCredentials) async throws -> PreKeyBundleResponse {
        try await call(
            .GET, APIRoutes.bundle(accountId: accountId, deviceId: deviceId.map(String.init) ?? "*"), as: device, expecting: [200])
    }

    /// Sends one ciphertext per device of `accountId`. With `idempotencyKey` (the `Idempotency-Key` header), a repeat
    /// of the send gets the first answer and stores nothing again (``SendIdempotencyKey`` makes ParleyKit's keys).
    public func send(
        _ request: SendMessagesRequest, to accountId: String, as device: DeviceCredentials,
        idempotencyKey: String? = nil
    ) async throws -> SendOutcome {
        let (status, body) = try await send(
            .PUT, APIRoutes.messages(to: accountId), body: try JSONEncoder().encode(request), as: device, expecting: [200, 409, 410],
            extraHeaders: Self.idempotencyHeader(idempotencyKey))
        return try SendOutcome(status: status, body: body)
    }

    /// The oldest pending envelopes of the device.
    public func mailbox(as device: DeviceCredentials) async throws -> EnvelopeListResponse {
        try await call(.GET, APIRoutes.mailbox, as: device, expecting: [200])
    }

    /// Deletes an envelope the device has safely stored. An envelope the server no longer has (acknowledged before, or
    /// handed out again by a server that replays) is gone already: that is not an error.
    public func acknowledge(_ guid: String, as device: DeviceCredentials) async throws {
        _ = try await send(
            .DELETE, APIRoutes.acknowledge(guid: ParleyServerClient.pathComponent(guid)), body: nil, as: device,
            expecting: [204, 404])
    }

    /// Uploads an (already encrypted) attachment.
    public func uploadAttachment(_ bytes: [UInt8], as device: DeviceCredentials) async throws -> AttachmentUploadResponse {
        let (_, body) = try await send(
            .POST, APIRoutes.attachments, body: Data(bytes), as: device, expecting: [201],
            contentType: "application/octet-stream")
        return try decode(AttachmentUploadResponse.self, body)
    }

    /// Uploads the (already encrypted) file at `url`, streamed in 64 KiB chunks; `progress` receives bytes sent.
    public func uploadAttachment(
        fileAt url: URL, as device: DeviceCredentials,
        progress: @escaping @Sendable (Int64) -> Void = { _ in }
    ) async throws -> AttachmentUploadResponse {
        let data = try await upload(
            fileAt: url, to: APIRoutes.attachments, contentType: "application/octet-stream",
            authorization: device.authorization, expecting: [201], timeout: .minutes(30), progress: progress)
        return try decode(AttachmentUploadResponse.self, data)
    }

    /// POSTs the file at `url` to `path`, streamed in 64 KiB chunks (`progress` hears bytes sent); the answer's body when
    /// its status is one of `expecting`.
    func upload(
        fileAt url: URL, to path: String, contentType: String, authorization: String, expecting: Set<Int>,
        timeout: TimeAmount, progress: @escaping @Sendable (Int64) -> Void = { _ in }
    ) async throws -> Data {
        let size = Int64((try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0)
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .POST
        request.headers.add(name: "Authorization", value: authorization)
        request.headers.add(name: "Content-Type", value: contentType)
        request.body = .stream(FileChunks(url: url, progress: progress), length: .known(size))
        let status: Int
        let data: Data
        do {
            let response = try await http.execute(request, timeout: timeout)
            status = Int(response.status.code)
            data = Data((try await response.body.collect(upTo: 1024 * 1024)).readableBytesView)
        } catch {
            throw ParleyError.server(.transport(TransportFailure.describe(error, server: baseURL)))
        }
        guard expecting.contains(status) else { throw ParleyError.server(.unexpected(status: status, body: data)) }
        return data
    }

    /// Downloads attachment `id` into the file at `destination`, streamed; `progress` receives bytes received. A server
    /// that sends more than `maximumBytes` (what the attachment's size allows) is cut off with
    /// ``ParleyError/Attachment/tooLarge(limit:)``: an endless body cannot fill the disk. No credentials go with it (the
    /// server would learn who received what the uploader sent), over the pool of requests without them.
    public func downloadAttachment(
        _ id: String, to destination: URL, maximumBytes: Int64 = .max,
        progress: @escaping @Sendable (Int64) -> Void = { _ in }
    ) async throws {
        let request = HTTPClientRequest(url: baseURL + APIRoutes.attachment(ParleyServerClient.pathComponent(id)))
        let response: HTTPClientResponse
        do {
            response = try await unidentifiedHTTP.execute(request, timeout: .minutes(30))
        } catch {
            throw ParleyError.server(.transport(TransportFailure.describe(error, server: baseURL)))
        }
        guard response.status.code == 200 else {
            let data = Data((try? await response.body.collect(upTo: 1024 * 1024))?.readableBytesView ?? .init())
            throw ParleyError.server(.unexpected(status: Int(response.status.code), body: data))
        }
        guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
            throw ParleyError.server(.transport("cannot create \(destination.path)"))
        }
        let output = try FileHandle(forWritingTo: destination)
        defer { try? output.close() }
        var received: Int64 = 0
        do {
            for try await buffer in response.body {
                received += Int64(buffer.readableBytes)
                guard received <= maximumBytes else { throw ParleyError.attachment(.tooLarge(limit: maximumBytes)) }
                try output.write(contentsOf: Data(buffer.readableBytesView))
                progress(received)
            }
        } catch let error as ParleyError {
            throw error
        } catch {
            throw ParleyError.server(.transport(TransportFailure.describe(error, server: baseURL)))
        }
    }

    /// Downloads an attachment, or the byte range `range` of it (without credentials, as above).
    public func downloadAttachment(_ id: String, range: ClosedRange<Int64>? = nil) async throws -> [UInt8] {
        var headers: [(String, String)] = []
        if let range { headers.append(("Range", "bytes=\(range.lowerBound)-\(range.upperBound)")) }
        let (_, body) = try await send(
            .GET, APIRoutes.attachment(ParleyServerClient.pathComponent(id)), body: nil, as: nil,
            expecting: [200, 206], extraHeaders: headers, limit: Self.attachmentResponseBytes, unidentified: true)
        return [UInt8](body)
    }

    // The transport helpers below are shared with the extensions in `ParleyServerClient+*.swift`.

    func call<Response: Decodable>(
        _ method: HTTPMethod, _ path: String, as device: DeviceCredentials?, expecting: Set<Int>
    ) async throws -> Response {
        let (_, body) = try await send(method, path, body: nil, as: device, expecting: expecting)
        return try decode(Response.self, body)
    }

    func call<Request: Encodable, Response: Decodable>(
        _ method: HTTPMethod, _ path: String, body: Request, as device: DeviceCredentials?, expecting: Set<Int>
    ) async throws -> Response {
        let (_, data) = try await send(method, path, body: try JSONEncoder().encode(body), as: device, expecting: expecting)
        return try decode(Response.self, data)
    }

    /// The largest JSON answer read: a full mailbox page (100 envelopes of up to 96 KiB, in base64) with room to spare.
    /// A larger one is a server misbehaving, refused before it costs more memory.
    static let jsonResponseBytes = 32 * 1024 * 1024
    /// The largest attachment read into memory (the server's default attachment limit is 100 MiB).
    static let attachmentResponseBytes = 256 * 1024 * 1024

    /// Sends a request and reads its answer, at most `limit` bytes of it (more is
    /// ``ParleyError/Server/malformedResponse(_:)``).
    func send(
        _ method: HTTPMethod, _ path: String, body: Data?, as device: DeviceCredentials?, expecting: Set<Int>,
        contentType: String = "application/json", extraHeaders: [(String, String)] = [], limit: Int = jsonResponseBytes,
        unidentified: Bool = false
    ) async throws -> (Int, Data) {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        if let device { request.headers.add(name: "Authorization", value: device.authorization) }
        for (name, value) in extraHeaders { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: contentType)
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let status: Int
        let data: Data
        do {
            // Requests that must not say who sends (sealed sends, fetches with an access key, downloads) get the pool of their
            // own; everything else — registration, linking, backups, the operator's calls name someone — the other.
            let response = try await (unidentified ? unidentifiedHTTP : http).execute(request, timeout: timeout)
            status = Int(response.status.code)
            data = Data((try await response.body.collect(upTo: limit)).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw ParleyError.server(.malformedResponse("the answer to \(method.rawValue) \(path) is longer than \(limit) bytes"))
        } catch {
            throw ParleyError.server(.transport(TransportFailure.describe(error, server: baseURL)))
        }
        guard expecting.contains(status) else {
            throw ParleyError.server(.unexpected(status: status, body: data))
        }
        return (status, data)
    }

    /// The `Unidentified-Access-Key` header carrying `key` (base64), shown instead of credentials.
    static func accessKeyHeader(_ key: Data) -> [(String, String)] {
        [(APIRoutes.unidentifiedAccessKeyHeader, key.base64EncodedString())]
    }

    /// The `Idempotency-Key` header carrying `key`, or none.
    static func idempotencyHeader(_ key: String?) -> [(String, String)] {
        key.map { [(APIRoutes.idempotencyKeyHeader, $0)] } ?? []
    }

    /// `text` percent-encoded as one path component (a `/` in it cannot reach another route).
    /// The `Authorization` value of an operator call.
    static func bearer(_ token: String) -> String { "Bearer \(token)" }

    static func pathComponent(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? text
    }

    func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        try ParleyError.Server.decode(T.self, from: data)
    }
}
