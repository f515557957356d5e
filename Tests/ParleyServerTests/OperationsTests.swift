import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ParleyAPI
import ParleyProtocol
import ParleyServer
import Testing

@Suite struct OperationsTests {
    @Test func sendsOverTheAccountsRateLimitGet429WithRetryAfter() async throws {
        var limits = ServerLimits()
        // One token per 1,000 s: however slow the machine, the bucket does not refill during the test.
        limits.rateLimits.send = TokenBucketPolicy(capacity: 2, refillPerSecond: 0.001)
        try await ServerHarness(limits: limits).run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            try await RealtimeTests.send(2, from: alice, to: bob, client: client)
            let request = SendMessagesRequest(
                messages: [MessageTests.message(1, registrationId: try MessageTests.registrationId(of: bob))], timestamp: 9)
            let (status, headers, body) = try await client.execute(
                uri: APIRoutes.messages(to: bob.accountId), method: .put, headers: alice.headers,
                body: ByteBuffer(bytes: try JSONEncoder().encode(request))
            ) { ($0.status, $0.headers, Data($0.body.readableBytesView)) }
            #expect(status == .tooManyRequests)
            #expect(headers[.retryAfter].flatMap(Int.init).map { $0 >= 1 && $0 <= 1_000 } == true)
            #expect(try JSONDecoder().decode(APIErrorBody.self, from: body).code == "rate_limited")
            // Another account has its own bucket.
            let carol = try await client.register("carol")
            try await RealtimeTests.send(1, from: carol, to: bob, client: client)
        }
    }

    @Test func bundleFetchesAreRateLimitedPerCaller() async throws {
        var limits = ServerLimits()
        limits.rateLimits.bundleFetch = TokenBucketPolicy(capacity: 3, refillPerSecond: 0.01)
        try await ServerHarness(limits: limits).run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            try await client.uploadKeys(for: bob, count: 10)
            for _ in 0..<3 {
                #expect(
                    try await client.call(.get, APIRoutes.bundle(accountId: bob.accountId, deviceId: "1"), headers: alice.headers).0 == .ok)
            }
            #expect(
                try await client.call(.get, APIRoutes.bundle(accountId: bob.accountId, deviceId: "1"), headers: alice.headers).0
                    == .tooManyRequests)
        }
    }

    @Test func metricsAndHealthAreServed() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            try await RealtimeTests.send(3, from: alice, to: bob, client: client)
            let (health, healthBody) = try await client.call(.get, APIRoutes.health)
            #expect(health == .ok && String(decoding: healthBody, as: UTF8.self).contains("ok"))
            let (status, body) = try await client.call(.get, APIRoutes.metrics)
            let text = String(decoding: body, as: UTF8.self)
            #expect(status == .ok)
            #expect(text.contains("parley_messages_accepted_total 3"))
            #expect(text.contains("parley_mailbox_depth 3"))
            #expect(text.contains("parley_websockets_open 0"))
            #expect(text.contains("parley_http_requests_total{method=\"PUT\",status=\"200\"} 3"))
        }
    }

    @Test func maintenanceSweepsExpiredEnvelopesAndLinkCodes() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            try await RealtimeTests.send(2, from: alice, to: bob, client: client)
            let service = MaintenanceService(dependencies: harness.dependencies, logger: .init(label: "test"))
            await service.sweep(now: ServerClock.milliseconds())
            #expect(try await harness.store.mailboxDepth() == 2)
            await service.sweep(now: ServerClock.milliseconds() + harness.dependencies.limits.messageLifetimeMilliseconds + 1000)
            #expect(try await harness.store.mailboxDepth() == 0)
        }
    }

    /// A lifetime reaching back before 1970 ("keep for a century") keeps everything: the cutoff was a wrapping
    /// subtraction, a time in the far future, and the sweep emptied every mailbox (PostgreSQL) or trapped (SQLite).
    @Test func aLifetimeLongerThanTheEpochKeepsEveryEnvelope() async throws {
        var limits = ServerLimits()
        limits.messageLifetimeMilliseconds = 36_500 * 24 * 60 * 60 * 1000
        #expect(limits.oldestKept(now: ServerClock.milliseconds()) == 0)
        let harness = try ServerHarness(limits: limits)
        try await harness.run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            try await RealtimeTests.send(2, from: alice, to: bob, client: client)
            await MaintenanceService(dependencies: harness.dependencies, logger: .init(label: "test")).sweep(
                now: ServerClock.milliseconds())
            #expect(try await harness.store.mailboxDepth() == 2)
            let (status, body) = try await client.call(.get, APIRoutes.mailbox, headers: bob.headers)
            #expect(status == .ok)
            #expect(try JSONDecoder().decode(EnvelopeListResponse.self, from: body).messages.count == 2)
        }
    }
}

/// What the server's configuration prints as (ServiceLifecycle logs services by description at debug level).
@Suite struct RedactedDescriptionTests {
    @Test func noSecretReachesADescription() throws {
        let harness = try ServerHarness()
        let backup = BackupSettings(oprfKey: Array(repeating: 9, count: 32))
        let texts = [
            String(describing: harness.dependencies), String(describing: backup),
            String(describing: MaintenanceService(dependencies: harness.dependencies, logger: Logger(label: "test"))),
        ]
        for text in texts {
            #expect(!text.contains(ServerHarness.operatorToken))
            #expect(!text.contains("7, 7, 7") && !text.contains("9, 9, 9"), "no key bytes: \(text.prefix(200))")
            // The sender certificates' signing key (random, so the byte patterns above found it only by chance).
            #expect(!text.contains("scalar") && !text.contains("agreementKey"), "no private key: \(text)")
        }
        let key = PrivateKey.generate()
        #expect("\(key)" == "PrivateKey(<redacted>)" && String(reflecting: key) == "PrivateKey(<redacted>)")
        #expect(!String(describing: IdentityKeyPair.generate()).contains("scalar"))
    }
}
