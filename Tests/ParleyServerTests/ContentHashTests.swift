import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyServer
import Testing

/// The hash banks: checks, stores, prefix lookups with decoys, the operator API and background imports.
@Suite struct ContentHashTests {
    static func sha(_ text: String) -> String { ContentHashFormat.hex(Array(SHA256.hash(data: Data(text.utf8)))) }
    static let operatorHeaders: HTTPFields = [.authorization: "Bearer \(ServerHarness.operatorToken)", .contentType: "application/json"]

    static func check(_ client: some TestClientProtocol, _ member: Member, _ hash: String) async throws -> HashCheckResult {
        let (status, body) = try await client.call(
            .post, ContentDetectionRoutes.contains, headers: member.headers, json: HashCheckRequest(hash: hash))
        #expect(status == .ok)
        return try JSONDecoder().decode(HashCheckResult.self, from: body)
    }

    static func waitForImport(_ client: some TestClientProtocol, _ id: String) async throws -> HashImportJob {
        for _ in 0..<600 {
            let (_, body) = try await client.call(.get, ContentDetectionRoutes.importJob(id), headers: operatorHeaders)
            let job = try JSONDecoder().decode(HashImportJob.self, from: body)
            if !["queued", "running"].contains(job.state) { return job }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw CancellationError()
    }

    @Test func blockedHitsBlockSeenHitsCountAndStoresNeedADevice() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bad = Self.sha("bad")
            let sent = Self.sha("sent")
            let unknown = Self.sha("unknown")
            #expect(
                try await client.call(.put, ContentDetectionRoutes.hash(bad, bank: "blocked"), headers: Self.operatorHeaders).0
                    == .noContent)
            #expect(
                try await client.call(.post, ContentDetectionRoutes.store, headers: alice.headers, json: HashCheckRequest(hash: sent)).0
                    == .noContent)
            #expect(try await client.call(.post, ContentDetectionRoutes.store, json: HashCheckRequest(hash: sent)).0 == .unauthorized)

            #expect(
                try await Self.check(client, alice, bad) == HashCheckResult(hash: bad, found: true, banks: ["blocked"], action: "block"))
            #expect(try await Self.check(client, alice, sent) == HashCheckResult(hash: sent, found: true, banks: ["seen"], action: "allow"))
            #expect(
                try await Self.check(client, alice, unknown) == HashCheckResult(hash: unknown, found: false, banks: [], action: "allow"))
            let (status, body) = try await client.call(
                .post, ContentDetectionRoutes.batchContains, headers: alice.headers,
                json: BatchHashCheckRequest(hashes: [unknown, bad, sent]))
            #expect(status == .ok)
            #expect(try JSONDecoder().decode(BatchHashCheckResponse.self, from: body).results.map(\.action) == ["allow", "block", "allow"])

            // The operator removes a hash; a second removal finds nothing.
            #expect(
                try await client.call(.delete, ContentDetectionRoutes.hash(bad, bank: "blocked"), headers: Self.operatorHeaders).0
                    == .noContent)
            #expect(
                try await client.call(.delete, ContentDetectionRoutes.hash(bad, bank: "blocked"), headers: Self.operatorHeaders).0
                    == .notFound)
            #expect(try await Self.check(client, alice, bad).found == false)
        }
    }

    @Test func strictModeBlocksSeenHashesToo() async throws {
        try await ServerHarness(strictSeen: true).run { client in
            let alice = try await client.register("alice")
            let sent = Self.sha("sent")
            _ = try await client.call(.post, ContentDetectionRoutes.store, headers: alice.headers, json: HashCheckRequest(hash: sent))
            #expect(try await Self.check(client, alice, sent).action == "block")
            let (_, body) = try await client.call(.get, ContentDetectionRoutes.prefix(String(sent.prefix(5))), headers: alice.headers)
            #expect(try JSONDecoder().decode(HashPrefixResponse.self, from: body).suffixes.contains(String(sent.dropFirst(5))))
        }
    }

    @Test func prefixAnswersHaveAFixedSizeAndHideWhichEntriesAreReal() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bad = Self.sha("bad")
            _ = try await client.call(.put, ContentDetectionRoutes.hash(bad, bank: "blocked"), headers: Self.operatorHeaders)
            func answer(_ prefix: String) async throws -> HashPrefixResponse {
                let (status, body) = try await client.call(.get, ContentDetectionRoutes.prefix(prefix), headers: alice.headers)
                #expect(status == .ok)
                return try JSONDecoder().decode(HashPrefixResponse.self, from: body)
            }
            let hit = try await answer(String(bad.prefix(5)))
            let miss = try await answer(bad.hasPrefix("fffff") ? "00000" : "fffff")
            #expect(hit.suffixes.count == 256 && miss.suffixes.count == 256)
            #expect(hit.suffixes.contains(String(bad.dropFirst(5))))
            #expect(
                hit.suffixes == hit.suffixes.sorted()
                    && hit.suffixes.allSatisfy { $0.count == 59 && ContentHashFormat.parse("00000" + $0) != nil })
            #expect(try await answer(String(bad.prefix(5))) == hit, "the same prefix gets the same decoys")
            #expect(try await client.call(.get, ContentDetectionRoutes.prefix(String(bad.prefix(5)))).0 == .unauthorized)
        }
    }

    @Test func malformedHashesAndOperatorRequestsAreRefused() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let good = Self.sha("x")
            for bad in ["", "abc", good.uppercased(), String(good.dropLast()) + "g", good + "0", " " + good.dropFirst()] {
                #expect(
                    try await client.call(.post, ContentDetectionRoutes.contains, headers: alice.headers, json: HashCheckRequest(hash: bad))
                        .0 == .badRequest)
                #expect(
                    try await client.call(.post, ContentDetectionRoutes.store, headers: alice.headers, json: HashCheckRequest(hash: bad)).0
                        == .badRequest)
                #expect(
                    try await client.call(
                        .post, ContentDetectionRoutes.batchContains, headers: alice.headers,
                        json: BatchHashCheckRequest(hashes: [good, bad])
                    ).0 == .badRequest)
            }
            for prefix in ["abcd", "abcdef", "ABCDE", "abcdg"] {
                #expect(try await client.call(.get, ContentDetectionRoutes.prefix(prefix), headers: alice.headers).0 == .badRequest)
            }
            #expect(
                try await client.call(
                    .post, ContentDetectionRoutes.batchContains, headers: alice.headers,
                    json: BatchHashCheckRequest(hashes: [])
                ).0 == .badRequest)
            #expect(
                try await client.call(
                    .post, ContentDetectionRoutes.batchContains, headers: alice.headers,
                    json: BatchHashCheckRequest(hashes: Array(repeating: good, count: 1001))
                ).0 == .badRequest)
            #expect(
                try await client.call(.post, ContentDetectionRoutes.contains, headers: alice.headers, raw: "{\"hash\":").0 == .badRequest)
            // Operator routes: devices are not operators, a wrong token is refused, banks are named.
            #expect(
                try await client.call(.put, ContentDetectionRoutes.hash(good, bank: "blocked"), headers: alice.headers).0 == .unauthorized)
            let wrong: HTTPFields = [.authorization: "Bearer not-the-token"]
            #expect(try await client.call(.put, ContentDetectionRoutes.hash(good, bank: "blocked"), headers: wrong).0 == .unauthorized)
            #expect(
                try await client.call(.put, ContentDetectionRoutes.hash(good, bank: "other"), headers: Self.operatorHeaders).0
                    == .badRequest)
            #expect(
                try await client.call(.put, ContentDetectionRoutes.hash("xyz", bank: "blocked"), headers: Self.operatorHeaders).0
                    == .badRequest)
            #expect(
                try await client.call(.get, ContentDetectionRoutes.importJob(UUID().uuidString), headers: Self.operatorHeaders).0
                    == .notFound)
            #expect(
                try await client.call(.post, ContentDetectionRoutes.imports(bank: "blocked"), headers: Self.operatorHeaders, raw: "").0
                    == .badRequest)
        }
    }

    @Test func importsCountImportedDuplicateAndInvalidLinesAndRerunsAddNothing() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let hashes = (0..<250).map { Self.sha("import \($0)") }
            // CSV with a header, CRLF endings, an uppercase hash, a repeat, a blank line and three bad lines.
            var csv = "id,sha256,note\r\n"
            for (index, hash) in hashes.enumerated() { csv += "\(index),\(index == 7 ? hash.uppercased() : hash),x\r\n" }
            csv += "250,\(hashes[0]),repeat\r\n\r\n251,nothex,bad\r\n252\r\n253,\(hashes[1].dropLast()),short\r\n"
            let (status, body) = try await client.call(
                .post, ContentDetectionRoutes.imports(bank: "blocked"), headers: Self.operatorHeaders, raw: csv)
            #expect(status == .accepted)
            let first = try await Self.waitForImport(client, try JSONDecoder().decode(HashImportJob.self, from: body).id)
            #expect(first.state == "completed")
            #expect(first.imported == 250 && first.duplicates == 1 && first.invalid == 3 && first.lines == 256)
            #expect(first.errors.count == 3 && first.errors[0].hasPrefix("line 254:"))
            #expect(try await Self.check(client, alice, hashes[7]).action == "block")

            // One hash per line, the same hashes: nothing new.
            let plain = hashes.joined(separator: "\n")
            let (_, again) = try await client.call(
                .post, ContentDetectionRoutes.imports(bank: "blocked"), headers: Self.operatorHeaders, raw: plain)
            let second = try await Self.waitForImport(client, try JSONDecoder().decode(HashImportJob.self, from: again).id)
            #expect(second.state == "completed" && second.imported == 0 && second.duplicates == 250 && second.invalid == 0)

            let (_, metrics) = try await client.call(.get, APIRoutes.metrics)
            let text = String(decoding: metrics, as: UTF8.self)
            #expect(
                text.contains("parley_dcd_checks_total") && text.contains("parley_dcd_hits_total")
                    && text.contains("parley_dcd_import_lines_total{outcome=\"imported\"} 250"))
        }
    }
}
