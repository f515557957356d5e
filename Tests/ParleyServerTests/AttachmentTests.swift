import Foundation
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyServer
import Testing

@Suite struct AttachmentTests {
    static func upload(_ bytes: [UInt8], as member: Member, client: some TestClientProtocol) async throws -> (HTTPResponse.Status, Data) {
        try await client.execute(
            uri: APIRoutes.attachments, method: .post,
            headers: [.authorization: member.authorization, .contentType: "application/octet-stream"],
            body: ByteBuffer(bytes: bytes)
        ) { ($0.status, Data($0.body.readableBytesView)) }
    }

    /// `GET /v1/attachments/{id}`, without credentials (as clients download), or with `member`'s.
    static func download(_ id: String, range: String? = nil, as member: Member? = nil, client: some TestClientProtocol)
        async throws -> (HTTPResponse.Status, HTTPFields, [UInt8])
    {
        var headers: HTTPFields = [:]
        if let member { headers[.authorization] = member.authorization }
        if let range { headers[.range] = range }
        return try await client.execute(uri: APIRoutes.attachment(id), method: .get, headers: headers) {
            ($0.status, $0.headers, Array($0.body.readableBytesView))
        }
    }

    @Test func uploadsAreStoredAndServedWholeOrByRange() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let blob = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let (status, body) = try await Self.upload(blob, as: alice, client: client)
            #expect(status == .created)
            let stored = try JSONDecoder().decode(AttachmentUploadResponse.self, from: body)
            #expect(stored.size == Int64(blob.count) && stored.expires > ServerClock.milliseconds())

            let (whole, wholeHeaders, wholeBytes) = try await Self.download(stored.id, as: bob, client: client)
            #expect(whole == .ok && wholeBytes == blob && wholeHeaders[.acceptRanges] == "bytes")

            let (part, partHeaders, partBytes) = try await Self.download(stored.id, range: "bytes=100-199", as: bob, client: client)
            #expect(part == .partialContent && partBytes == Array(blob[100...199]))
            #expect(partHeaders[.contentRange] == "bytes 100-199/300000")
            let (_, _, tail) = try await Self.download(stored.id, range: "bytes=-10", as: bob, client: client)
            #expect(tail == Array(blob.suffix(10)))
            let (_, _, open) = try await Self.download(stored.id, range: "bytes=299990-", as: bob, client: client)
            #expect(open == Array(blob.suffix(10)))
            let (clamped, _, clampedBytes) = try await Self.download(stored.id, range: "bytes=299995-400000", as: bob, client: client)
            #expect(clamped == .partialContent && clampedBytes == Array(blob.suffix(5)))
            // The id is a UUID: its upper-case spelling names the same blob (the document's pattern allows it).
            let (upper, _, upperBytes) = try await Self.download(stored.id.uppercased(), range: "bytes=0-9", as: bob, client: client)
            #expect(upper == .partialContent && upperBytes == Array(blob.prefix(10)))

            let (outside, outsideHeaders, _) = try await Self.download(stored.id, range: "bytes=300000-", as: bob, client: client)
            #expect(outside == .rangeNotSatisfiable && outsideHeaders[.contentRange] == "bytes */300000")
            #expect(try await Self.download(stored.id, range: "bytes=9-3", as: bob, client: client).0 == .badRequest)
            #expect(try await Self.download(stored.id, range: "bytes=abc", as: bob, client: client).0 == .badRequest)
        }
    }

    /// A download names no one: it takes no credentials (the server would learn who received what the uploader sent),
    /// and is limited per client address instead.
    @Test func downloadsTakeNoCredentialsAndAreLimitedPerAddress() async throws {
        var limits = ServerLimits()
        limits.rateLimits.attachmentDownloadPerAddress = TokenBucketPolicy(capacity: 3, refillPerSecond: 0.001)
        // The live server sees 127.0.0.1: three downloads, then 429.
        try await ServerHarness(limits: limits).runLive { client in
            let alice = try await client.register("alice")
            let (_, body) = try await Self.upload([1, 2, 3, 4], as: alice, client: client)
            let stored = try JSONDecoder().decode(AttachmentUploadResponse.self, from: body)
            #expect(try await Self.download(stored.id, client: client).2 == [1, 2, 3, 4])
            #expect(try await Self.download(stored.id, range: "bytes=1-2", client: client).2 == [2, 3])
            #expect(try await Self.download(UUID().uuidString.lowercased(), client: client).0 == .notFound)
            let (status, headers, _) = try await Self.download(stored.id, client: client)
            #expect(status == .tooManyRequests && headers[.retryAfter] != nil)
        }
    }

    /// What downloads serve counts as well, a token per MiB: requests alone would let one address pull gigabytes.
    @Test func downloadsAreLimitedInMebibytesServedPerAddress() async throws {
        var limits = ServerLimits()
        limits.rateLimits.attachmentDownloadMebibytesPerAddress = TokenBucketPolicy(capacity: 3, refillPerSecond: 0.001)
        try await ServerHarness(limits: limits).runLive { client in
            let alice = try await client.register("alice")
            let blob = [UInt8](repeating: 9, count: 1_572_864)  // 1.5 MiB: two tokens
            let (_, body) = try await Self.upload(blob, as: alice, client: client)
            let stored = try JSONDecoder().decode(AttachmentUploadResponse.self, from: body)
            #expect(try await Self.download(stored.id, client: client).2 == blob)
            // A range of ten bytes takes one token: the last.
            #expect(try await Self.download(stored.id, range: "bytes=0-9", client: client).0 == .partialContent)
            let (status, headers, _) = try await Self.download(stored.id, range: "bytes=0-9", client: client)
            #expect(status == .tooManyRequests && headers[.retryAfter] != nil)
        }
    }

    @Test func unknownIdsMalformedIdsAndStrangersAreRefused() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            #expect(try await Self.download(UUID().uuidString.lowercased(), as: alice, client: client).0 == .notFound)
            #expect(try await Self.download("..%2F..%2Fserver.sqlite", as: alice, client: client).0 == .notFound)
            #expect(try await Self.download("incoming", as: alice, client: client).0 == .notFound)
            let status: HTTPResponse.Status = try await client.execute(
                uri: APIRoutes.attachments, method: .post, headers: [:], body: ByteBuffer(bytes: [1, 2, 3])
            ) { response in response.status }
            #expect(status == .unauthorized)
            #expect(try await Self.upload([], as: alice, client: client).0 == .badRequest)
        }
    }

    @Test func uploadsOverTheCapAreRefusedAndLeaveNothingBehind() async throws {
        var limits = ServerLimits()
        limits.attachmentBytes = 1000
        let harness = try ServerHarness(limits: limits)
        try await harness.run { client in
            let alice = try await client.register("alice")
            let (status, body) = try await Self.upload([UInt8](repeating: 7, count: 5000), as: alice, client: client)
            #expect(status == .contentTooLarge)
            #expect(try JSONDecoder().decode(APIErrorBody.self, from: body).code == "payload_too_large")
            let folder = harness.directory.appendingPathComponent("attachments")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "incoming" }
            let incoming = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("incoming").path)
            #expect(files.isEmpty && incoming.isEmpty)
            #expect(try await Self.upload([UInt8](repeating: 7, count: 1000), as: alice, client: client).0 == .created)
        }
    }

    @Test func expiredAttachmentsAreSweptAway() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-blobs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let blobs = try AttachmentStore(directory: directory)
        let id = UUID().uuidString.lowercased()
        try Data([1, 2, 3]).write(to: directory.appendingPathComponent(id))
        #expect(blobs.deleteBlobs(olderThan: ServerClock.milliseconds() - 60_000) == 0)
        #expect(blobs.deleteBlobs(olderThan: ServerClock.milliseconds() + 60_000) == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(id).path))
    }
}
