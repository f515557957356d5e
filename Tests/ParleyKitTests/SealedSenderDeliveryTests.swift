import Foundation
import GRDB
import ParleyProtocol
import ParleyServer
import Testing

@_spi(Inspection) @testable import ParleyKit

/// Sealed sender end to end through a real server (SQLite, and PostgreSQL when `make test` asks): profile keys travel
/// in messages, later messages go sealed and the server's store keeps no sender for them, a refused access key falls
/// back to credentials, and a group message is one sealed sender v2 request.
@Suite(.serialized) struct SealedSenderDeliveryTests {
    /// Two accounts that have each sent the other a message, so both know the other's profile key.
    static func acquainted(_ server: TestServer) async throws -> (alice: ParleyClient, bob: ParleyClient, aliceId: String, bobId: String) {
        let alice = try server.client("alice")
        let bob = try server.client("bob")
        let aliceId = try await alice.accounts.register(username: "alice").accountId
        let bobId = try await bob.accounts.register(username: "bob").accountId
        try alice.sender.enqueue(body: "hello bob", to: bobId)
        _ = try await alice.runJobs()
        _ = try await bob.receiveOnce()
        try bob.sender.enqueue(body: "hello alice", to: aliceId)
        _ = try await bob.runJobs()
        _ = try await alice.receiveOnce()
        return (alice, bob, aliceId, bobId)
    }

    /// Alice (her client talking to the server through `recorder`) and Bob registered, and Bob's first message to her
    /// received: she has his profile key, so what she sends him may go sealed.
    static func introduced(_ server: TestServer, aliceThrough recorder: HostileServer) async throws
        -> (alice: ParleyClient, bob: ParleyClient, aliceId: String, bobId: String)
    {
        let alice = try server.client("alice", via: recorder.baseURL)
        let bob = try server.client("bob")
        let aliceId = try await alice.accounts.register(username: "alice").accountId
        let bobId = try await bob.accounts.register(username: "bob").accountId
        try bob.sender.enqueue(body: "hello alice", to: aliceId)
        _ = try await bob.runJobs()
        _ = try await alice.receiveOnce()
        return (alice, bob, aliceId, bobId)
    }

    /// What the server's store holds for `accountId`'s first device: the SQLite file itself when that is the backend
    /// (every mailbox row), else the store's rows.
    static func storedSources(_ server: TestServer, accountId: String) async throws -> [(source: String?, type: Int, firstByte: UInt8?)] {
        if !server.usesPostgres {
            return try await DatabaseQueue(path: server.serverDatabasePath).read { db in
                try Row.fetchAll(
                    db, sql: "SELECT source_account_id, type, content FROM mailbox WHERE account_id = ? ORDER BY rowid",
                    arguments: [accountId]
                ).map { ($0["source_account_id"], $0["type"], ($0["content"] as Data).first) }
            }
        }
        return try await server.storedEnvelopes(accountId: accountId, deviceId: 1).map {
            ($0.sourceAccountId, Int($0.type), $0.content.first)
        }
    }

    /// The messages `client` received from `accountId`, oldest first, and whether each arrived sealed.
    static func texts(_ client: ParleyClient, with accountId: String) throws -> [(body: String?, sealed: Bool)] {
        try ConversationFeatureTests.messages(client, with: accountId).filter { !$0.outgoing }.map { ($0.body, $0.sealed) }
    }

    @Test func profileKeysDeriveSignalsAccessKey() throws {
        // Signal-Android's vector: a profile key of 32 × 0x02.
        let key = try ParleyKit.ProfileKey(bytes: Data(repeating: 2, count: 32))
        #expect(key.accessKey.map { String(format: "%02x", $0) }.joined() == "5a723acee52c5ea02b92a3a360c09595")
        #expect(ParleyKit.ProfileKey.generate() != ParleyKit.ProfileKey.generate())
        #expect(throws: ParleyError.self) { try ParleyKit.ProfileKey(bytes: Data(count: 31)) }
    }

    @Test func aSealedMessageLeavesNoSenderInTheServersStore() async throws {
        try await TestServer.run { server in
            let (alice, bob, aliceId, bobId) = try await Self.acquainted(server)
            // Alice's first message went with credentials (she did not know Bob's key); Bob's reply knew hers.
            #expect(try Self.texts(bob, with: aliceId).map(\.sealed) == [false])
            #expect(try Self.texts(alice, with: bobId).map(\.sealed) == [true])

            try alice.sender.enqueue(body: "now sealed", to: bobId)
            _ = try await alice.runJobs()
            let stored = try await Self.storedSources(server, accountId: bobId)
            let last = try #require(stored.last)
            #expect(last.source == nil && last.type == 6 && last.firstByte == 0x11)  // sealed sender v1
            #expect(!stored.contains { $0.source == aliceId && $0.type == 6 })
            _ = try await bob.receiveOnce()
            let texts = try Self.texts(bob, with: aliceId)
            #expect(texts.map(\.body) == ["hello bob", "now sealed"] && texts.map(\.sealed) == [false, true])
        }
    }

    /// A sender with one device sends nothing with its credentials beside its sealed messages: no empty transcript send
    /// at each message's timestamp (which told the server who sent the sealed message beside it, and named the sender in
    /// the server's idempotency records for 30 days). Its device list is asked for once, while it receives, and a bundle fetched to rebuild
    /// a session with someone whose key it has shows that key rather than its credentials.
    @Test func aSingleDeviceSenderSendsNothingIdentifiedBesideItsSealedMessages() async throws {
        try await TestServer.run { server in
            try await HostileServer.run(inFrontOf: server) { recorder in
                let (alice, bob, aliceId, bobId) = try await Self.introduced(server, aliceThrough: recorder)
                let received = recorder.requests.count
                var timestamps: [UInt64] = []
                for text in ["one", "two", "three"] {
                    let id = try alice.sender.enqueue(body: text, to: bobId)
                    let report = try await alice.runJobs()
                    #expect(report.failed == 0 && report.deferred == 0)
                    timestamps.append(try #require(try alice.message(id: id)?.timestamp))
                }
                #expect(!recorder.requests.contains("PUT /v1/messages/\(aliceId)"), "\(recorder.requests)")
                #expect(recorder.requests.filter { $0 == "GET /v1/devices" }.count == 1, "\(recorder.requests)")
                // Asked while Alice drained her mailbox, not beside a message she sent.
                #expect(!recorder.requests[received...].contains("GET /v1/devices"), "\(recorder.requests)")
                // A session rebuilt from a fresh bundle once Alice has Bob's key: the fetch shows his access key, not
                // her credentials. Nothing naming Bob went with her credentials but the lookup of his name when his
                // first message came (left as it is: it happens once per contact).
                try await alice.database.awaitableWrite { db in
                    try db.execute(sql: "DELETE FROM sessions WHERE address = ?", arguments: [bobId])
                }
                try alice.sender.enqueue(body: "four", to: bobId)
                let report = try await alice.runJobs()
                #expect(report.failed == 0 && report.deferred == 0)
                #expect(recorder.requests.contains { $0.hasPrefix("GET /v1/keys/\(bobId)/") }, "\(recorder.requests)")
                #expect(
                    recorder.identifiedRequests.filter { $0.contains(bobId) } == ["GET /v1/accounts/\(bobId)"],
                    "\(recorder.identifiedRequests)")
                _ = try await bob.receiveOnce()
                #expect(try Self.texts(bob, with: aliceId).map(\.sealed) == [true, true, true, true])
                guard !server.usesPostgres else { return }  // the SQLite file is read directly
                let records = try await DatabaseQueue(path: server.serverDatabasePath).read { db in
                    try Row.fetchAll(db, sql: "SELECT scope, fingerprint FROM idempotency_records").map {
                        (scope: $0["scope"] as String, fingerprint: $0["fingerprint"] as String)
                    }
                }
                for timestamp in timestamps {
                    #expect(
                        records.filter { $0.fingerprint.hasSuffix(":\(timestamp)") }.map(\.scope) == ["unidentified:\(bobId)"], "\(records)"
                    )
                }
            }
        }
    }

    /// `listen` asks whether the account has other devices before its jobs run (and hourly), not beside a send: a
    /// message sent while it listens has no device-list request next to it.
    @Test func listeningAsksForOtherDevicesBeforeItsJobsRun() async throws {
        try await TestServer.run { server in
            try await HostileServer.run(inFrontOf: server) { recorder in
                let (alice, _, _, bobId) = try await Self.introduced(server, aliceThrough: recorder)
                // Receiving asks an hour before the answer goes stale (listen checks hourly: no send finds it stale first).
                let nearlyStale = UInt64(Date().timeIntervalSince1970 * 1000) - MessageDelivery.ownDevicesCheckInterval + 30 * 60 * 1000
                try await alice.database.awaitableWrite { db in
                    try SettingsTable.set(MessageDelivery.ownDevicesCheckedSetting, to: String(nearlyStale), db)
                }
                let checks = recorder.requests.filter { $0 == "GET /v1/devices" }.count
                _ = try await alice.receiveOnce()
                #expect(recorder.requests.filter { $0 == "GET /v1/devices" }.count == checks + 1, "\(recorder.requests)")
                // The last answer is forgotten, as if a day had passed.
                try await alice.database.awaitableWrite { db in
                    try db.execute(sql: "DELETE FROM settings WHERE key = ?", arguments: [MessageDelivery.ownDevicesCheckedSetting])
                }
                let before = recorder.requests.count
                let listening = Task { try await alice.listen() }
                defer { listening.cancel() }
                try await ConversationFeatureTests.eventually { recorder.requests[before...].contains("GET /v1/devices") }
                let asked = recorder.requests.count
                let id = try alice.sender.enqueue(body: "while listening", to: bobId)
                try await ConversationFeatureTests.eventually { try alice.message(id: id)?.status == .sent }
                #expect(!recorder.requests[asked...].contains("GET /v1/devices"), "\(recorder.requests[asked...])")
                listening.cancel()
                _ = await listening.result
            }
        }
    }

    /// A typing indicator to someone whose key is known goes sealed, without credentials: the server relays it naming no
    /// one, and the receiver still shows who types (from the certificate inside). To someone whose key is not known it
    /// goes over the sender's socket, named, as before.
    @Test func aTypingIndicatorGoesSealedWithoutCredentials() async throws {
        try await TestServer.run { server in
            try await HostileServer.run(inFrontOf: server) { recorder in
                let (alice, bob, aliceId, bobId) = try await Self.introduced(server, aliceThrough: recorder)
                try alice.sender.enqueue(body: "hello bob", to: bobId)
                _ = try await alice.runJobs()
                _ = try await bob.receiveOnce()
                let listening = Task { try await bob.listen() }
                defer { listening.cancel() }
                try await ConversationFeatureTests.eventually {
                    try await alice.sendTyping(.started, to: bobId) && bob.typingIndicators.isTyping(aliceId)
                }
                #expect(recorder.requests.contains("PUT /v1/ephemeral/\(bobId)"), "\(recorder.requests)")
                #expect(
                    !recorder.identifiedRequests.contains { $0.contains("ephemeral") || $0.contains("websocket") },
                    "\(recorder.identifiedRequests)")
                listening.cancel()
                _ = await listening.result
            }
        }
    }

    @Test func aRefusedAccessKeyFallsBackToCredentialsAndARotatedKeyIsLearned() async throws {
        try await TestServer.run { server in
            let (alice, bob, aliceId, bobId) = try await Self.acquainted(server)
            // Bob rotates his key: Alice's copy of the old one no longer opens his mailbox.
            let rotated = try await bob.accounts.rotateProfileKey()
            try alice.sender.enqueue(body: "still reaches you", to: bobId)
            #expect(try await alice.runJobs().failed == 0)
            let refused = try alice.database.read { db in
                try Bool.fetchOne(db, sql: "SELECT sealed_refused FROM recipients WHERE account_id = ?", arguments: [bobId])
            }
            #expect(refused == true)
            _ = try await bob.receiveOnce()
            #expect(try Self.texts(bob, with: aliceId).compactMap(\.body).contains("still reaches you"))

            // Bob's next message carries the new key: Alice learns it and sends sealed again.
            try bob.sender.enqueue(body: "new key", to: aliceId)
            _ = try await bob.runJobs()
            _ = try await alice.receiveOnce()
            let learned = try alice.database.read { db in
                try Row.fetchOne(db, sql: "SELECT profile_key, sealed_refused FROM recipients WHERE account_id = ?", arguments: [bobId])
            }
            #expect((learned?["profile_key"] as Data?) == rotated.bytes && (learned?["sealed_refused"] as Bool?) == false)
            try alice.sender.enqueue(body: "sealed again", to: bobId)
            _ = try await alice.runJobs()
            _ = try await bob.receiveOnce()
            #expect(try Self.texts(bob, with: aliceId).last.map { $0.body == "sealed again" && $0.sealed } == true)
        }
    }

    @Test func unidentifiedDeliveryOffSendsWithCredentials() async throws {
        try await TestServer.run { server in
            let (alice, bob, aliceId, bobId) = try await Self.acquainted(server)
            try alice.updateSettings { $0.unidentifiedDelivery = false }
            try alice.sender.enqueue(body: "with credentials", to: bobId)
            _ = try await alice.runJobs()
            #expect(try await Self.storedSources(server, accountId: bobId).last?.source == aliceId)
            _ = try await bob.receiveOnce()
            #expect(try Self.texts(bob, with: aliceId).last.map { $0.body == "with credentials" && !$0.sealed } == true)
        }
    }

    @Test func aGroupMessageIsOneSealedSenderV2Request() async throws {
        try await TestServer.run { server in
            let p = try await ConversationFeatureTests.people(server)
            // Alice learns Bob's and Carol's profile keys from their messages.
            for (client, name) in [(p.bobPhone, "bob"), (p.carol, "carol")] {
                try client.sender.enqueue(body: "hi from \(name)", to: p.aliceId)
                _ = try await client.runJobs()
            }
            _ = try await p.alice.receiveOnce()
            let groupId = try p.alice.sender.createGroup(title: "Sealed", members: [p.bobId, p.carolId])
            _ = try await p.alice.runJobs()
            for client in [p.bobPhone, p.bobLaptop, p.carol] { _ = try await client.receiveOnce() }

            try p.alice.sender.enqueue(body: "sealed to all", toGroup: groupId)
            _ = try await p.alice.runJobs()
            for account in [p.bobId, p.carolId] {
                let last = try #require(try await Self.storedSources(server, accountId: account).last)
                #expect(last.source == nil && last.type == 6 && last.firstByte == 0x22)  // a share of a sealed sender v2 message
            }
            for client in [p.bobPhone, p.bobLaptop, p.carol] {
                _ = try await client.receiveOnce()
                #expect(try GroupConversationTests.groupTexts(client, groupId).last == "sealed to all")
                let conversation = try #require(try client.groups().first { $0.id == groupId }).conversationId
                #expect(try client.history(conversationId: conversation).messages.first { $0.body == "sealed to all" }?.sealed == true)
            }
        }
    }

    @Test func aPinnedTrustRootOutranksTheServersWord() async throws {
        try await TestServer.run { server in
            let alice = try server.client("alice")
            let bob = try server.client("bob")
            // Alice's operator pinned a root this server does not use (as if the server were an impostor).
            let pinned = PrivateKey.generate().publicKey.serialize().base64EncodedString()
            try alice.accounts.pinTrustRoot(base64: pinned)
            #expect(throws: ParleyError.self) { try alice.accounts.pinTrustRoot(base64: "bm90IGEga2V5") }
            let aliceId = try await alice.accounts.register(username: "alice").accountId
            let bobId = try await bob.accounts.register(username: "bob").accountId
            let settings = try alice.settings()
            #expect(settings.sealedSenderTrustRoot == pinned && settings.trustRootPinned)
            #expect(try bob.settings().sealedSenderTrustRoot != pinned && !(try bob.settings().trustRootPinned))

            try alice.sender.enqueue(body: "hello bob", to: bobId)
            _ = try await alice.runJobs()
            _ = try await bob.receiveOnce()
            try bob.sender.enqueue(body: "sealed, certified by the server's root", to: aliceId)
            _ = try await bob.runJobs()
            // Bob's certificate leads to the server's root, not the pinned one: not believed, shown under no name.
            let outcomes = try await alice.receiveOnce()
            #expect(outcomes.contains { if case .undecryptable(let reason) = $0 { reason.contains("sealed sender") } else { false } })
            #expect(try Self.texts(alice, with: bobId).isEmpty)
        }
    }

    @Test func anExpiredSenderCertificateIsNotBelieved() async throws {
        try await TestServer.run { server in
            let clock = TestClock()
            let alice = try server.client("alice", now: clock.source)
            let bob = try server.client("bob")
            let aliceId = try await alice.accounts.register(username: "alice").accountId
            let bobId = try await bob.accounts.register(username: "bob").accountId
            try alice.sender.enqueue(body: "hello bob", to: bobId)
            _ = try await alice.runJobs()
            _ = try await bob.receiveOnce()
            try bob.sender.enqueue(body: "certified for a day", to: aliceId)
            _ = try await bob.runJobs()
            // Alice reads it two days later: the certificate inside (valid for a day) has expired.
            clock.advance(by: 2 * 24 * 3_600_000)
            let outcomes = try await alice.receiveOnce()
            #expect(outcomes.contains { if case .undecryptable(let reason) = $0 { reason.contains("sealed sender") } else { false } })
            #expect(try Self.texts(alice, with: bobId).isEmpty)
        }
    }
}
