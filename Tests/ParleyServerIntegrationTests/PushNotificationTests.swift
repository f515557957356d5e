import AsyncHTTPClient
import Foundation
import ParleyAPI
import ParleyProtocol
import ParleyTestSupport
import Testing

@testable import ParleyKit

/// parley-server waking offline devices through Web Push, APNs and FCM, each judged by an independent implementation
/// of the provider on loopback (``PushProviders``): http-ece decrypts our RFC 8291 payloads, py-vapid and PyJWT check
/// our VAPID, APNs and OAuth tokens, and the emulators answer with the providers' documented errors.
@Suite(.serialized) struct PushNotificationTests {
    /// Registers `name` with a real identity and uploads a signed prekey (what makes a device pushable, seed 004).
    static func registerWithKeys(_ api: ParleyServerClient, _ name: String, keys: Bool = true) async throws -> TestDevice {
        let store = InMemorySignalProtocolStore()
        let identity = try store.identityKeyPair(context: NullContext())
        let password = DeviceCredentials.makePassword()
        let registrationId = try store.localRegistrationId(context: NullContext())
        let response = try await api.register(
            RegisterAccountRequest(
                username: name, identityKey: identity.publicKey.serialize().base64EncodedString(), registrationId: registrationId,
                password: password, deviceName: nil))
        let device = TestDevice(
            credentials: DeviceCredentials(accountId: response.accountId, deviceId: 1, password: password),
            registrationId: registrationId)
        if keys {
            let signed = SignedPreKeyRecord.generate(id: 1, timestamp: 0, signedBy: identity.privateKey)
            let lastResort = KyberPreKeyRecord.generate(id: 2, timestamp: 0, signedBy: identity.privateKey)
            let entity = { (key: Data, signature: Data, id: UInt32) in
                SignedPreKeyEntity(keyId: id, publicKey: key.base64EncodedString(), signature: signature.base64EncodedString())
            }
            try await api.uploadKeys(
                UploadKeysRequest(
                    signedPreKey: entity(Data(try signed.publicKey().serialize()), Data(signed.signature), 1), preKeys: [], kemPreKeys: [],
                    lastResortKemPreKey: entity(Data(try lastResort.publicKey().serialize()), Data(lastResort.signature), 2)),
                as: device.credentials)
        }
        return device
    }

    /// Holds `device`'s socket open until the returned task is cancelled; returns once the mailbox is drained.
    static func connect(_ device: TestDevice, to server: ServerProcess) async throws -> Task<Void, any Error> {
        let connected = AsyncStream<Void>.makeStream()
        let socket = Task {
            try await MessageSocket(baseURL: server.baseURL, device: device.credentials).run { frame, writer in
                if frame.type == .queueEmpty { connected.continuation.yield() }
                if frame.type == .envelope, let envelope = frame.envelope { try await writer.acknowledge(envelope.guid) }
                return true
            }
        }
        for await _ in connected.stream { break }
        return socket
    }

    /// The providers' emulator and a server (SQLite) that pushes through it, with an HTTP client for the test's calls
    /// (the caller shuts it down).
    static func start() async throws -> (PushProviders, ServerProcess, HTTPClient) {
        let providers = try await PushProviders()
        let server = try await ServerProcess(
            arguments: ["--data-directory", NSTemporaryDirectory() + "parley-push-\(UUID())"]
                + (try providers.serverArguments))
        return (providers, server, HTTPClient(eventLoopGroupProvider: .singleton))
    }

    @Test func offlineDevicesWithKeysAreWokenThroughEachProviderAndNothingElseIs() async throws {
        let (providers, server, http) = try await Self.start()
        defer { Task { try? await http.shutdown() } }
        defer { server.stop() }
        let api = ParleyServerClient(baseURL: server.baseURL, http: http)

        let alice = try await Self.registerWithKeys(api, "alice")
        let bob = try await Self.registerWithKeys(api, "bob")
        let carol = try await Self.registerWithKeys(api, "carol", keys: false)
        let dave = try await Self.registerWithKeys(api, "dave")
        let erin = try await Self.registerWithKeys(api, "erin")
        let frank = try await Self.registerWithKeys(api, "frank")
        try await api.registerPushTarget(try #require(providers.subscriptions["sub0"]), as: bob.credentials)
        try await api.registerPushTarget(try #require(providers.subscriptions["sub1"]), as: carol.credentials)
        try await api.registerPushTarget(try #require(providers.subscriptions["sub2"]), as: dave.credentials)
        try await api.registerPushTarget(
            .apns(token: "a1b2c3d4e5f60718293a4b5c6d7e8f90", topic: PushProviders.topic, sandbox: true), as: erin.credentials)
        try await api.registerPushTarget(.fcm(token: "fcm-registration-token-1"), as: frank.credentials)
        #expect(try await api.pushStatus(as: carol.credentials).keysRegistered == false)
        #expect(try await api.pushStatus(as: bob.credentials).providers == ["webpush", "apns", "fcm"])

        let daveOnline = try await Self.connect(dave, to: server)
        let secret = "the plaintext that must stay home"
        for recipient in [bob, carol, dave, erin, frank] {
            let outcome = try await sendText(secret, from: alice, to: [recipient], api: api)
            guard case .sent = outcome else {
                Issue.record("send refused: \(outcome)")
                return
            }
        }
        let records = try await providers.waitFor { records in
            records.contains { $0.provider == "webpush" } && records.contains { $0.provider == "apns" }
                && records.contains { $0.provider == "fcm" }
        }
        // Anything late would be a push that should not happen at all.
        try await Task.sleep(for: .seconds(1))
        let all = try await providers.records()
        daveOnline.cancel()

        let webPush = all.filter { $0.provider == "webpush" }
        #expect(webPush.map(\.target) == ["sub0"], "only Bob: Carol has no keys, Dave is connected")
        let vapidKey = try await api.vapidKey()
        if let push = webPush.first {
            #expect(push.status == 201 && push.error == nil, "\(push.error ?? "")")
            #expect(push.plaintext == #"{"parley":"wake"}"#, "http-ece opened the RFC 8291 payload")
            #expect(push.vapidKey == vapidKey, "py-vapid verified a token signed by the server's published key")
            #expect(push.headers["urgency"] == "high" && push.headers["ttl"] == "86400")
        }
        let apns = all.filter { $0.provider == "apns" }
        #expect(apns.count == 1)
        if let push = apns.first {
            #expect(
                push.status == 200 && push.error == nil && push.httpVersion == "2",
                "\(push.error ?? "") over HTTP/\(push.httpVersion ?? "?")")
            #expect(push.headers["apns-push-type"] == "background" && push.headers["apns-priority"] == "5")
            #expect(push.headers["apns-topic"] == PushProviders.topic && push.headers["apns-collapse-id"] == "parley-wake")
            #expect(Data(base64Encoded: push.rawBody) == Data(#"{"aps":{"content-available":1}}"#.utf8))
        }
        let fcm = all.filter { $0.provider == "fcm" }
        #expect(fcm.count == 1 && fcm.first?.status == 200 && fcm.first?.error == nil, "\(fcm.first?.error ?? "")")
        #expect(all.filter { $0.provider == "oauth" }.map(\.status) == [200], "one access token, from a verified RS256 assertion")
        #expect(records.allSatisfy { $0.provider != "unknown" })

        // Nothing about the message, its sender or its recipient's account leaves the server.
        for record in all {
            for secretPart in [secret, alice.credentials.accountId, "alice", bob.credentials.accountId, erin.credentials.accountId] {
                #expect(!record.everything.contains(secretPart), "\(record.provider) learned '\(secretPart)'")
            }
        }
        server.stop()
        await providers.stop()
    }

    @Test func burstsAreCoalescedRetriesFollowTheProviderAndGoneTargetsAreRemoved() async throws {
        let (providers, server, http) = try await Self.start()
        defer { Task { try? await http.shutdown() } }
        defer { server.stop() }
        let api = ParleyServerClient(baseURL: server.baseURL, http: http)

        let alice = try await Self.registerWithKeys(api, "alice")
        let bob = try await Self.registerWithKeys(api, "bob")
        let gina = try await Self.registerWithKeys(api, "gina")
        let erin = try await Self.registerWithKeys(api, "erin")
        let frank = try await Self.registerWithKeys(api, "frank")
        let hank = try await Self.registerWithKeys(api, "hank")
        try await api.registerPushTarget(try #require(providers.subscriptions["sub3"]), as: bob.credentials)
        try await api.registerPushTarget(try #require(providers.subscriptions["gone0"]), as: gina.credentials)
        try await api.registerPushTarget(
            .apns(token: "unregistered-0a1b2c", topic: PushProviders.topic, sandbox: false), as: erin.credentials)
        try await api.registerPushTarget(.fcm(token: "throttled-once-frank"), as: frank.credentials)
        try await api.registerPushTarget(try #require(providers.subscriptions["throttled-once0"]), as: hank.credentials)

        // A burst of 100 messages to Bob wakes him once.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask { _ = try await sendText("burst \(index)", from: alice, to: [bob], api: api) }
            }
            try await group.waitForAll()
        }
        for recipient in [gina, erin, frank, hank] { _ = try await sendText("hello", from: alice, to: [recipient], api: api) }
        _ = try await providers.waitFor { records in
            records.filter { $0.target == "throttled-once-frank" }.count >= 2
                && records.filter { $0.target == "throttled-once0" }.count >= 2
                && records.contains { $0.target == "gone0" } && records.contains { $0.target == "unregistered-0a1b2c" }
        }
        try await Task.sleep(for: .seconds(1))
        let all = try await providers.records()
        #expect(all.filter { $0.target == "sub3" }.count == 1, "100 messages, one push")
        #expect(
            all.filter { $0.target == "throttled-once-frank" }.map(\.status) == [429, 200], "FCM's Retry-After honoured, then delivered")
        #expect(all.filter { $0.target == "throttled-once0" }.map(\.status) == [429, 201], "the push service's 429 retried")
        #expect(all.filter { $0.target == "gone0" }.map(\.status) == [410])
        #expect(all.filter { $0.target == "unregistered-0a1b2c" }.map(\.status) == [410])
        #expect(all.allSatisfy { $0.error == nil || $0.status >= 400 }, "every accepted request passed the provider's checks")

        // Gone targets are removed; the others stay.
        #expect(try await api.pushStatus(as: gina.credentials).target == nil)
        #expect(try await api.pushStatus(as: erin.credentials).target == nil)
        #expect(try await api.pushStatus(as: frank.credentials).target != nil)
        #expect(all.filter { $0.provider == "oauth" }.count == 1, "FCM's access token is reused across attempts")

        // Once Bob connects and drains, the window starts over: his next message wakes him again.
        let online = try await Self.connect(bob, to: server)
        online.cancel()
        _ = try? await online.value
        try await Task.sleep(for: .milliseconds(300))
        _ = try await sendText("after reconnecting", from: alice, to: [bob], api: api)
        let again = try await providers.waitFor { $0.filter { $0.target == "sub3" }.count >= 2 }
        #expect(again.filter { $0.target == "sub3" }.count == 2)

        let metrics = try await http.execute(HTTPClientRequest(url: server.baseURL + APIRoutes.metrics), timeout: .seconds(10))
        let text = String(buffer: try await metrics.body.collect(upTo: 1 << 20))
        #expect(
            text.contains(#"parley_push_total{provider="fcm",outcome="retried"} 1"#),
            "\(text.split(separator: "\n").filter { $0.contains("push") })")
        #expect(text.contains(#"parley_push_total{provider="webpush",outcome="unregistered"} 1"#))
        // The messages after the first are coalesced in memory (99 on an idle machine). Under load the first claim may
        // answer late or fail, and later messages then reach the store's claim, which refuses a second push within the
        // window without counting them here: the promise is the one push above, the count is at most 99.
        let coalesced = text.split(separator: "\n").first { $0.hasPrefix("parley_push_coalesced_total ") }
            .flatMap { Int($0.split(separator: " ").last ?? "") }
        #expect((1...99).contains(coalesced ?? 0), "\(coalesced.map(String.init) ?? "no parley_push_coalesced_total")")
        server.stop()
        await providers.stop()
    }

    /// Two processes on one PostgreSQL: a device connected to one is not pushed for a message the other stores; once it
    /// disconnects, it is.
    @Test func aSocketOnAnotherProcessCountsAsOnline() async throws {
        let providers = try await PushProviders()
        let database = try TestDatabase()
        try await database.create()
        let arguments = ["--database-url", database.url] + (try providers.serverArguments)
        let first = try await ServerProcess(
            arguments: arguments + ["--data-directory", NSTemporaryDirectory() + "parley-push-a-\(UUID())"])
        let second = try await ServerProcess(
            arguments: arguments + ["--data-directory", NSTemporaryDirectory() + "parley-push-b-\(UUID())"])
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { Task { try? await http.shutdown() } }
        let viaSecond = ParleyServerClient(baseURL: second.baseURL, http: http)
        let alice = try await Self.registerWithKeys(viaSecond, "alice")
        let bob = try await Self.registerWithKeys(viaSecond, "bob")
        try await viaSecond.registerPushTarget(try #require(providers.subscriptions["sub4"]), as: bob.credentials)

        let online = try await Self.connect(bob, to: first)
        try await Task.sleep(for: .milliseconds(500))
        _ = try await sendText("while online elsewhere", from: alice, to: [bob], api: viaSecond)
        try await Task.sleep(for: .seconds(1))
        #expect(try await providers.records("webpush").isEmpty, "the first process holds Bob's socket")

        online.cancel()
        _ = try? await online.value
        try await Task.sleep(for: .milliseconds(500))
        _ = try await sendText("after leaving", from: alice, to: [bob], api: viaSecond)
        let pushed = try await providers.waitFor { $0.contains { $0.target == "sub4" } }
        #expect(pushed.filter { $0.target == "sub4" }.map(\.status) == [201])

        first.stop()
        second.stop()
        await providers.stop()
        try? await database.drop()
    }

    /// The command line: a user registers a UnifiedPush-style Web Push endpoint, is woken by a message and receives it.
    @Test func theCommandLineRegistersAWebPushEndpointAndIsWoken() async throws {
        let providers = try await PushProviders()
        let directory = NSTemporaryDirectory() + "parley-push-cli-\(UUID())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess(arguments: ["--data-directory", directory] + (try providers.serverArguments))
        let parley = try CommandLineClientTests.Parley()
        #expect(try await parley.run("register", "alice", "--server", server.baseURL, "--account", "alice").status == 0)
        #expect(try await parley.run("register", "bob", "--server", server.baseURL, "--account", "bob").status == 0)

        // Keys made by the command (the payload is only "wake up"): registered and shown.
        let generated = try await parley.run("push", "register", "--webpush", "https://ntfy.example/upAbC123?up=1", "--account", "bob")
        #expect(generated.status == 0 && generated.stdout.contains("Web Push to https://ntfy.example/upAbC123?up=1"), "\(generated.stderr)")
        // A subscription whose keys the receiver holds, as a UnifiedPush distributor hands them over.
        guard case .webPush(let endpoint, let p256dh, let auth) = try #require(providers.subscriptions["sub5"]) else { return }
        // `--auth=…`: URL-safe base64 may begin with "-", which would read as an option.
        let registered = try await parley.run(
            "push", "register", "--webpush", endpoint, "--p256dh=\(p256dh)", "--auth=\(auth)", "--account", "bob")
        #expect(registered.status == 0, "\(registered.stderr)")
        let status = try await parley.run("push", "status", "--account", "bob", "--json")
        #expect(
            status.stdout.contains(endpoint.replacingOccurrences(of: "/", with: "\\/")) || status.stdout.contains(endpoint),
            "\(status.stdout)")
        #expect(status.stdout.contains(#""keysRegistered":true"#), "\(status.stdout)")
        #expect(try await parley.run("push", "register", "--apns", "abc", "--account", "bob").status != 0, "--apns needs --topic")

        #expect(try await parley.run("send", "bob", "wake up and read this", "--account", "alice").status == 0)
        let pushed = try await providers.waitFor { $0.contains { $0.target == "sub5" } }
        #expect(pushed.filter { $0.target == "sub5" }.map(\.plaintext) == [#"{"parley":"wake"}"#])
        let received = try await parley.run("receive", "--account", "bob", "--json")
        #expect(received.status == 0 && received.stdout.contains("\"stored\":1"), "\(received.stdout)")

        #expect(try await parley.run("push", "remove", "--account", "bob").stdout.contains("removed"))
        #expect(try await parley.run("push", "status", "--account", "bob").stdout.contains("target: none"))
        server.stop()
        await providers.stop()
    }
}
