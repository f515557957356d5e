import Foundation
import ParleyAPI
import Testing

@_spi(Inspection) @testable import ParleyKit

/// Duplicate content detection in the client, against a real in-process server: the send and download hooks, the
/// post-send store, fail-open behaviour with retries and the circuit breaker, and the cache.
@Suite(.serialized) struct ContentDetectionTests {
    static func write(_ text: String, in server: TestServer) throws -> URL {
        let url = server.directory.appendingPathComponent("file-\(UUID().uuidString.prefix(8)).txt")
        try Data(text.utf8).write(to: url)
        return url
    }

    static func block(_ file: URL, on server: TestServer, api: ParleyServerClient) async throws -> String {
        let hash = try ContentDetectionService.hash(ofFileAt: file)
        try await api.putHash(hash, bank: "blocked", operatorToken: TestServer.operatorToken)
        return hash
    }

    static func client(
        _ server: TestServer, _ name: String, _ configure: (inout ContentDetectionConfiguration) -> Void = { _ in },
        detectionServer: String? = nil
    ) throws -> ParleyClient {
        var configuration = ContentDetectionConfiguration()
        configure(&configuration)
        let base = try server.client(name)
        return ParleyClient(
            database: base.database, api: base.api, attachmentDirectory: server.directory.appendingPathComponent(name),
            contentDetection: configuration,
            contentDetectionServer: detectionServer.map { ParleyServerClient(baseURL: $0, http: server.http) })
    }

    @Test func aBlockedHashStopsTheSendBeforeUploadAndTheDownloadBeforeTheUser() async throws {
        try await TestServer.run { server in
            let alice = try Self.client(server, "alice")
            let bob = try Self.client(server, "bob")
            _ = try await alice.accounts.register(username: "alice")
            let bobId = try await bob.accounts.register(username: "bob").accountId
            let harmful = try Self.write("known harmful", in: server)
            let hash = try await Self.block(harmful, on: server, api: alice.api)
            let blobs = server.directory.appendingPathComponent("blobs")
            let before = (try? FileManager.default.contentsOfDirectory(atPath: blobs.path).count) ?? 0

            let id = try alice.sender.enqueue(body: "look", to: bobId, attachments: [harmful])
            #expect(try await alice.runJobs().failed == 1)
            let conversation = try #require(try alice.conversationId(with: bobId))
            let failed = try #require(try alice.history(conversationId: conversation).messages.first { $0.id == id })
            #expect(failed.status == .failed && failed.failureReason?.contains("blocked content hash") == true)
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: blobs.path).count) ?? 0) == before, "nothing uploaded")
            #expect(try await bob.receiveOnce().isEmpty)

            // A sender that does not check (PARLEY_DCD=off) gets it through; Bob's download hook stops it.
            let careless = try Self.client(server, "careless") { $0.enabled = false }
            _ = try await careless.accounts.register(username: "careless")
            try careless.sender.enqueue(body: "look", to: bobId, attachments: [harmful])
            #expect(try await careless.runJobs().completed == 1)
            #expect(try await bob.receiveOnce().count == 1)
            let carelessConversation = try #require(try bob.conversationId(with: try careless.credentials().accountId))
            let message = try #require(try bob.history(conversationId: carelessConversation).messages.first)
            let attachment = try #require(try bob.attachments(ofMessage: message.id).first)
            let destination = server.directory.appendingPathComponent("bob-download.txt")
            await #expect(throws: ParleyError.duplicateBlocked(fileName: "bob-download.txt")) {
                try await bob.downloadAttachment(attachment.id, to: destination)
            }
            #expect(!FileManager.default.fileExists(atPath: destination.path))
            let reason = try bob.database.read { db in
                try String.fetchOne(db, sql: "SELECT blocked_reason FROM attachments WHERE id = ?", arguments: [attachment.id])
            }
            #expect(reason?.contains(hash) == true)
        }
    }

    @Test func onlySuccessfulSendsStoreTheirHashes() async throws {
        try await TestServer.run { server in
            let alice = try Self.client(server, "alice") { $0.mode = .fullHash }
            let bob = try Self.client(server, "bob")
            _ = try await alice.accounts.register(username: "alice")
            let bobId = try await bob.accounts.register(username: "bob").accountId
            let photo = try Self.write("holiday photo", in: server)
            let hash = try ContentDetectionService.hash(ofFileAt: photo)

            // A send that fails (Bob's safety number changed, not yet accepted) stores nothing.
            try alice.sender.enqueue(body: "first", to: bobId)
            _ = try await alice.runJobs()
            try alice.database.write { db in try db.execute(sql: "UPDATE trusted_identities SET accepted = 0") }
            try alice.sender.enqueue(body: "photo", to: bobId, attachments: [photo])
            #expect(try await alice.runJobs().failed == 1)
            await alice.contentDetection.waitForBackgroundWork()
            #expect(try await alice.api.checkHash(hash, as: try alice.credentials()).found == false)

            // After accepting, the send succeeds and the hash lands in the seen bank: a duplicate, not blocked.
            try alice.acceptIdentity(of: bobId)
            try alice.sender.enqueue(body: "photo", to: bobId, attachments: [photo])
            #expect(try await alice.runJobs().completed == 1)
            await alice.contentDetection.waitForBackgroundWork()
            #expect(
                try await alice.api.checkHash(hash, as: try alice.credentials())
                    == HashCheckResult(hash: hash, found: true, banks: ["seen"], action: "allow"))
            #expect(alice.contentDetection.metrics.stored == 1)
        }
    }

    @Test func whenTheHashServiceIsDownSendsGoOutAndTheBreakerOpensThenRecovers() async throws {
        let fast: (inout ContentDetectionConfiguration) -> Void = {
            $0.mode = .fullHash
            $0.maxAttempts = 2
            $0.baseDelay = .milliseconds(1)
            $0.failureThreshold = 2
            $0.cooldown = .seconds(2)
            $0.requestTimeout = .seconds(1)  // a paused in-process server holds connections open without answering
        }
        try await TestServer.run { server in
            // Nothing listens on port 1: every hash lookup fails, and the send goes out anyway (fail open).
            let alice = try Self.client(server, "alice", fast, detectionServer: "http://127.0.0.1:1")
            let bob = try Self.client(server, "bob")
            _ = try await alice.accounts.register(username: "alice")
            let bobId = try await bob.accounts.register(username: "bob").accountId
            try alice.sender.enqueue(body: "with a file", to: bobId, attachments: [try Self.write("ordinary", in: server)])
            #expect(try await alice.runJobs().completed == 1)
            #expect(try await bob.receiveOnce().count == 1)
            // The send's lookup failed open after its one retry; the post-send store (in the background) failed too,
            // after its own retry. Waiting for it keeps the count from depending on when that task ran.
            await alice.contentDetection.waitForBackgroundWork()
            let metrics = alice.contentDetection.metrics
            #expect(metrics.failOpen == 1 && metrics.retries == 2 && metrics.failures == 2 && metrics.stored == 0, "\(metrics)")
        }
        try await TestServer.run { server in
            let owner = try server.client("owner")
            let credentials = try await owner.accounts.register(username: "owner")
            var configuration = ContentDetectionConfiguration()
            fast(&configuration)
            let service = ContentDetectionService(api: owner.api, configuration: configuration) { credentials }
            await server.pause()

            // Down: two lookups fail after one retry each and open the breaker.
            #expect(await service.contains(String(repeating: "a", count: 64)).source == .failOpen)
            #expect(await service.contains(String(repeating: "b", count: 64)).source == .failOpen)
            let down = service.metrics
            #expect(down.requests == 4 && down.retries == 2 && down.failures == 2 && down.breakerOpenings == 1)
            #expect(service.isCircuitOpen)
            // Open: answered at once, without a request.
            #expect(await service.contains(String(repeating: "c", count: 64)).source == .failOpen)
            #expect(service.metrics.requests == 4)

            // Back up and cooled down: one probe goes through and closes the breaker.
            try await server.resume()
            try await Task.sleep(for: .milliseconds(2100))
            #expect(await service.contains(String(repeating: "d", count: 64)).source == .server)
            // One lookup: a request, or two when the first met a connection the restart left behind (its one retry).
            #expect(!service.isCircuitOpen && (5...6).contains(service.metrics.requests), "\(service.metrics)")
        }
    }

    @Test func cachedAnswersAvoidRequests() async throws {
        try await TestServer.run { server in
            let full = try Self.client(server, "full") { $0.mode = .fullHash }
            _ = try await full.accounts.register(username: "full")
            let hash = String(repeating: "d", count: 64)
            #expect(await full.contentDetection.contains(hash).source == .server)
            #expect(await full.contentDetection.contains(hash).source == .cache)
            #expect(full.contentDetection.metrics.requests == 1 && full.contentDetection.metrics.cacheHits == 1)
            let batch = await full.contentDetection.batchContains([hash, String(repeating: "e", count: 64)])
            #expect(batch.map(\.source) == [.cache, .server] && full.contentDetection.metrics.requests == 2)

            // The operator's delete (with the credential in the configuration) also empties the cache.
            let curator = try Self.client(server, "curator") {
                $0.mode = .fullHash
                $0.operatorToken = TestServer.operatorToken
            }
            _ = try await curator.accounts.register(username: "curator")
            let bad = String(repeating: "f", count: 64)
            try await curator.api.putHash(bad, bank: "blocked", operatorToken: TestServer.operatorToken)
            #expect(await curator.contentDetection.contains(bad).blocked)
            try await curator.contentDetection.delete(bad)
            let after = await curator.contentDetection.contains(bad)
            #expect(!after.blocked && after.source == .server)
            await #expect(throws: ParleyError.self) { try await full.contentDetection.delete(bad) }  // no operator credential

            // Prefix mode: one answer serves every hash with the same five digits.
            let prefix = try Self.client(server, "prefix")
            _ = try await prefix.accounts.register(username: "prefix")
            let sameStart = ["abcde" + String(repeating: "1", count: 59), "abcde" + String(repeating: "2", count: 59)]
            _ = await prefix.contentDetection.contains(sameStart[0])
            #expect(await prefix.contentDetection.contains(sameStart[1]).source == .cache)
            #expect(prefix.contentDetection.metrics.requests == 1 && prefix.contentDetection.metrics.cacheHits == 1)
            // Malformed hashes never reach the server.
            #expect(await prefix.contentDetection.contains("nope").source == .failOpen)
            #expect(prefix.contentDetection.metrics.requests == 1)
        }
    }
}
