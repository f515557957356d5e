import Crypto
import Foundation
import Hummingbird
import ParleyAPI

/// Duplicate content detection: devices check and store SHA-256 hashes of attachment plaintexts; operators manage
/// the `blocked` bank one hash at a time or by importing files. The server sees hashes, never content.
struct ContentDetectionController: Sendable {
    let store: any HashBankStore
    let settings: ContentDetectionSettings
    let limits: ServerLimits
    let rateLimiter: RateLimiter
    let metrics: ServerMetrics
    let importer: HashImporter
    let fileIO = FileIO()

    /// Hashes per batch check.
    static let batchLimit = 1_000

    func addRoutes(to routes: ServerRoutes) {
        routes.device.post(RouterPath(ContentDetectionRoutes.contains), use: contains)
        routes.device.post(RouterPath(ContentDetectionRoutes.batchContains), use: batchContains)
        routes.device.post(RouterPath(ContentDetectionRoutes.store), use: storeSeen)
        routes.device.get(RouterPath(ContentDetectionRoutes.prefix("{prefix}")), use: prefix)
        routes.operator.put(RouterPath(ContentDetectionRoutes.hash("{hash}", bank: "{bank}")), use: put)
        routes.operator.delete(RouterPath(ContentDetectionRoutes.hash("{hash}", bank: "{bank}")), use: delete)
        routes.operator.post(RouterPath(ContentDetectionRoutes.importJobs), use: startImport)
        routes.operator.get(RouterPath(ContentDetectionRoutes.importJob("{id}")), use: importStatus)
    }

    /// `POST /v1/dcd/contains`.
    @Sendable func contains(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        try rateLimit(context)
        let body = try await JSONCoding.decode(HashCheckRequest.self, from: request, limit: limits.smallBodyBytes)
        let hash = try Self.parse(body.hash)
        let result = try await check([hash], kind: "contains")[0]
        return try JSONCoding.response(result)
    }

    /// `POST /v1/dcd/batch-contains`.
    @Sendable func batchContains(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        try rateLimit(context)
        let body = try await JSONCoding.decode(BatchHashCheckRequest.self, from: request, limit: Self.batchLimit * 80 + 1024)
        guard !body.hashes.isEmpty, body.hashes.count <= Self.batchLimit else {
            throw ServerError.badRequest("a batch holds 1 to \(Self.batchLimit) hashes")
        }
        let hashes = try body.hashes.map(Self.parse)
        return try JSONCoding.response(BatchHashCheckResponse(results: try await check(hashes, kind: "batch")))
    }

    /// `POST /v1/dcd/store`: after a successful send, into the `seen` bank (its expiry renewed if already there).
    @Sendable func storeSeen(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        try rateLimit(context)
        let body = try await JSONCoding.decode(HashCheckRequest.self, from: request, limit: limits.smallBodyBytes)
        let hash = try Self.parse(body.hash)
        let now = ServerClock.milliseconds()
        try await store.storeHash(hash, bank: HashBank.seen.rawValue, now: now, expires: now + settings.seenLifetimeMilliseconds)
        metrics.countContentStore(bank: HashBank.seen.rawValue)
        return Response(status: .noContent)
    }

    /// `GET /v1/dcd/prefix/{prefix}`: the blocking banks' suffixes for a 5-digit prefix, padded with keyed decoys.
    @Sendable func prefix(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        try rateLimit(context)
        let text = try context.pathParameter("prefix")
        guard let prefix = ContentHashFormat.parsePrefix(text) else {
            throw ServerError.badRequest("a prefix is exactly 5 lowercase hex digits")
        }
        // The prefix's 20 bits cover the first two bytes and the high nibble of the third.
        let lower: [UInt8] = [UInt8(prefix >> 12), UInt8(prefix >> 4 & 0xff), UInt8(prefix & 0x0f) << 4]
        let next = prefix + 1
        let upper: [UInt8]? = next > 0xfffff ? nil : [UInt8(next >> 12), UInt8(next >> 4 & 0xff), UInt8(next & 0x0f) << 4]
        let real = try await store.hashes(
            from: lower, to: upper, banks: settings.blockingBanks, now: ServerClock.milliseconds(),
            limit: settings.prefixMatchLimit)
        var suffixes = real.map { String(ContentHashFormat.hex($0).dropFirst(ContentHashFormat.prefixLength)) }
        let size = max(1, (suffixes.count + settings.prefixAnswerSize - 1) / settings.prefixAnswerSize) * settings.prefixAnswerSize
        suffixes += try Self.decoys(count: size - suffixes.count, prefix: text, key: settings.decoyKey)
        metrics.countContentChecks(kind: "prefix", hashes: 1)
        return Self.response(prefix: text, suffixes: suffixes.sorted())
    }

    /// `count` decoy suffixes for `prefix`, the same every time: the ChaCha20 keystream under a key made by
    /// HMAC-SHA256(decoy key, prefix), 30 bytes per decoy, as 59 hex digits.
    static func decoys(count: Int, prefix: String, key: [UInt8]) throws -> [String] {
        guard count > 0 else { return [] }
        let seed = SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Array(prefix.utf8), using: SymmetricKey(data: key)))
        let zeros = [UInt8](repeating: 0, count: count * 30)
        let keystream = Array(
            try ChaChaPoly.seal(zeros, using: seed, nonce: ChaChaPoly.Nonce(data: [UInt8](repeating: 0, count: 12))).ciphertext)
        return (0..<count).map { index in
            String(ContentHashFormat.hex(Array(keystream[(index * 30)..<(index * 30 + 30)])).dropFirst())
        }
    }

    /// The answer as JSON, written directly: every string is hex, so nothing needs escaping (the hot route's
    /// answer is about 16 KiB, which a generic encoder spends most of the request on).
    static func response(prefix: String, suffixes: [String]) -> Response {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(32 + suffixes.count * 62)
        buffer.writeString("{\"prefix\":\"\(prefix)\",\"suffixes\":[")
        for (index, suffix) in suffixes.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
            buffer.writeInteger(UInt8(ascii: "\""))
            buffer.writeString(suffix)
            buffer.writeInteger(UInt8(ascii: "\""))
        }
        buffer.writeString("]}")
        return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: buffer))
    }

    /// `PUT /v1/dcd/banks/{bank}/hashes/{hash}` (operator): adds one hash, without expiry.
    @Sendable func put(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        let bank = try Self.bank(try context.pathParameter("bank"))
        let text = try context.pathParameter("hash")
        let hash = try Self.parse(text)
        try await store.storeHash(hash, bank: bank.rawValue, now: ServerClock.milliseconds(), expires: nil)
        metrics.countContentStore(bank: bank.rawValue)
        return Response(status: .noContent)
    }

    /// `DELETE /v1/dcd/banks/{bank}/hashes/{hash}` (operator).
    @Sendable func delete(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        let bank = try Self.bank(try context.pathParameter("bank"))
        let text = try context.pathParameter("hash")
        guard try await store.deleteHash(try Self.parse(text), bank: bank.rawValue) else {
            throw ServerError.notFound("the \(bank.rawValue) bank does not hold this hash")
        }
        return Response(status: .noContent)
    }

    /// `POST /v1/dcd/imports?bank=…` (operator): the file streams to disk, the job runs in the background → 202.
    @Sendable func startImport(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        let bank = try Self.bank(request.uri.queryParameters.get("bank") ?? HashBank.blocked.rawValue)
        if let declared = request.headers[.contentLength].flatMap(Int64.init), declared > settings.importMaxBytes {
            throw ServerError.payloadTooLarge(Int(clamping: settings.importMaxBytes))
        }
        try FileManager.default.createDirectory(at: settings.importDirectory, withIntermediateDirectories: true)
        let id = UUID().uuidString.lowercased()
        let path = importer.filePath(id)
        try await SizeLimitedBody(base: request.body, limit: settings.importMaxBytes).write(to: path, with: fileIO, context: context)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
        guard size > 0 else {
            try? FileManager.default.removeItem(atPath: path)
            throw ServerError.badRequest("the import file is empty")
        }
        let now = ServerClock.milliseconds()
        let job = HashImportJob(
            id: id, bank: bank.rawValue, state: "queued", fileBytes: size, lines: 0, imported: 0, duplicates: 0,
            invalid: 0, errors: [], created: now, updated: now)
        try await store.createImportJob(job)
        importer.enqueue(id)
        return try JSONCoding.response(job, status: .accepted)
    }

    /// `GET /v1/dcd/imports/{id}` (operator).
    @Sendable func importStatus(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        let id = try context.pathParameter("id")
        guard UUID(uuidString: id) != nil, let stored = try await store.importJob(id: id.lowercased()) else {
            throw ServerError.notFound("no import job \(id)")
        }
        return try JSONCoding.response(stored.job)
    }

    private func rateLimit(_ context: DeviceRequestContext) throws {
        try rateLimiter.take("content-hash", accountId: context.device.account.id, policy: limits.rateLimits.contentHash)
    }

    private func check(_ hashes: [[UInt8]], kind: String) async throws -> [HashCheckResult] {
        let found = try await store.hashBanks(hashes, now: ServerClock.milliseconds())
        metrics.countContentChecks(kind: kind, hashes: hashes.count)
        let blocking = Set(settings.blockingBanks)
        return hashes.map { hash in
            let banks = found[hash] ?? []
            for bank in banks { metrics.countContentHit(bank: bank) }
            return HashCheckResult(
                hash: ContentHashFormat.hex(hash), found: !banks.isEmpty, banks: banks,
                action: banks.contains(where: blocking.contains) ? "block" : "allow")
        }
    }

    private static func parse(_ text: String) throws -> [UInt8] {
        guard let hash = ContentHashFormat.parse(text) else {
            throw ServerError.badRequest("a hash is exactly 64 lowercase hex characters (SHA-256)")
        }
        return hash
    }

    private static func bank(_ name: String) throws -> HashBank {
        guard let bank = HashBank(rawValue: name) else { throw ServerError.badRequest("unknown bank \(name): blocked or seen") }
        return bank
    }
}
