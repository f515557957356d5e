import AsyncHTTPClient
import Foundation
import ParleyAPI
import Testing

@_spi(Inspection) @_spi(Benchmarks) @testable import ParleyKit

/// ParleyClient's verbs as a front door uses them: each queues, goes as far as its ``DeliveryAttempt`` asks and
/// reports where what it queued stands; ``ParleyClient/events()`` reports what happens. Against a real in-process server,
/// with ``HostileServer`` in front of it where the server must be busy or refuse.
@Suite struct ClientVerbTests {
    /// Everything `events` delivers within `timeout` until `enough` says so.
    static func collect(
        _ events: AsyncStream<ClientEvent>, timeout: Duration = .seconds(10),
        until enough: @escaping @Sendable ([ClientEvent]) -> Bool
    ) async -> [ClientEvent] {
        await withTaskGroup(of: [ClientEvent]?.self) { group in
            group.addTask {
                var seen: [ClientEvent] = []
                for await event in events {
                    seen.append(event)
                    if enough(seen) { break }
                }
                return seen
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? []
        }
    }

    /// Alice behind `hostile`, Bob on the server itself, both registered.
    static func aliceThrough(_ hostile: HostileServer, andBobOn server: TestServer) async throws
        -> (alice: ParleyClient, bob: ParleyClient, bobId: String)
    {
        let alice = try server.client("alice", via: hostile.baseURL)
        let bob = try server.client("bob")
        try await alice.register(username: "alice")
        return (alice, bob, try await bob.register(username: "bob").accountId)
    }

    @Test func sendsAndActsReportSentQueuedOrFailedAndFailuresAreEvents() async throws {
        try await TestServer.run { server in
            try await HostileServer.run(inFrontOf: server) { hostile in
                let (alice, bob, bobId) = try await Self.aliceThrough(hostile, andBobOn: server)
                let events = alice.events()

                // A username is looked up, the message sent: the report says so and names it.
                let sent = try await alice.send(MessageDraft(body: "hello"), to: .person("bob"))
                #expect(sent.status == .sent && sent.failure == nil && sent.jobs.completed == 1)
                let messageId = try #require(sent.messageId)
                #expect(try alice.message(id: messageId)?.timestamp == sent.timestamp)

                // Queue only: nothing is tried.
                let queued = try await alice.send(MessageDraft(body: "later"), to: .person(bobId), attempt: .queueOnly)
                #expect(queued.status == .queued && queued.jobs == JobReport())
                // The server busy: still queued, and it goes with the next verb that sends.
                // (Two answers: this pass tries the queued one too.)
                hostile.on(
                    "PUT", "/v1/messages/", times: 2, .answer(status: 503, body: Array(#"{"code":"unavailable","message":"later"}"#.utf8)))
                let busy = try await alice.send(MessageDraft(body: "busy"), to: .person(bobId), attempt: .dueJobs)
                #expect(busy.status == .queued && busy.jobs.deferred == 2)
                let flushed = try await alice.sendQueued()
                #expect(flushed.completed >= 2 && flushed.failed == 0)
                #expect(alice.report(ofMessage: try #require(busy.messageId), jobs: flushed).status == .sent)

                // An act: sent, then one the server refuses for good, which is also an event.
                #expect(try await alice.react("👍", to: messageId).status == .sent)
                hostile.on("PUT", "/v1/messages/", .answer(status: 400, body: Array(#"{"code":"bad_request","message":"no"}"#.utf8)))
                let refused = try await alice.edit(messageId, body: "hello again")
                #expect(refused.status == .failed)
                let timestamp = try #require(refused.timestamp)
                let seen = await Self.collect(events) { seen in
                    seen.contains { if case .sendFailed(nil, timestamp, _) = $0 { true } else { false } }
                }
                #expect(seen.contains { if case .sendFailed(nil, timestamp, _) = $0 { true } else { false } })

                // Bob receives everything that went out, and the report counts it.
                let received = try await bob.receive(attempt: .dueJobs)
                let stored = received.outcomes.filter { if case .stored = $0 { true } else { false } }.count
                #expect(stored == 3)
                #expect(received.jobs.completed >= 1, "delivery receipts went out")
            }
        }
    }

    @Test func eventsFollowListenFromConnectionToMessages() async throws {
        try await TestServer.run { server in
            let alice = try server.client("alice")
            let bob = try server.client("bob")
            try await alice.register(username: "alice")
            try await bob.register(username: "bob")
            let events = bob.events()
            let listening = Task { try await bob.listen() }
            defer { listening.cancel() }
            let report = try await alice.send(MessageDraft(body: "live"), to: .person("bob"))
            #expect(report.status == .sent)
            let seen = await Self.collect(events) { seen in
                seen.contains { if case .received(.stored) = $0 { true } else { false } }
            }
            #expect(seen.first == .connection(up: true))
            guard case .received(.stored(let id))? = seen.first(where: { if case .received(.stored) = $0 { true } else { false } }) else {
                Issue.record("no stored message among \(seen)")
                return
            }
            #expect(try bob.message(id: id)?.body == "live")
            // The connection going down is an event too.
            let down = bob.events()
            listening.cancel()
            _ = try? await listening.value
            let after = await Self.collect(down, timeout: .seconds(5)) { $0.contains(.connection(up: false)) }
            #expect(after.contains(.connection(up: false)))
        }
    }

    @Test func groupVerbsResolveNamesAndReportTheirPass() async throws {
        try await TestServer.run { server in
            let alice = try server.client("alice")
            let bob = try server.client("bob")
            let carol = try server.client("carol")
            try await alice.register(username: "alice")
            try await bob.register(username: "bob")
            let carolId = try await carol.register(username: "carol").accountId
            let (groupId, created) = try await alice.createGroup(title: "Trip", members: ["bob"])
            #expect(created.status == .sent && created.jobs.failed == 0)
            let renamed = try await alice.updateGroup(groupId, title: "Trip 2", adding: ["carol"])
            #expect(renamed.status == .sent)
            #expect(try alice.group(id: groupId)?.title == "Trip 2")
            #expect(try alice.group(id: groupId)?.members.contains(carolId) == true)
            _ = try await bob.receive()
            #expect(try bob.group(id: groupId)?.title == "Trip 2")
            #expect(try await bob.leaveGroup(groupId).status == .sent)
            #expect(try bob.group(id: groupId)?.left == true)
            // A change to a group one has left is refused, and nothing is queued.
            await #expect(throws: ParleyError.self) { try await bob.updateGroup(groupId, title: "mine now") }
            // A member's unknown name fails the change before anything changes.
            await #expect(throws: ParleyError.self) { try await alice.updateGroup(groupId, title: "never", adding: ["nobody-such"]) }
            #expect(try alice.group(id: groupId)?.title == "Trip 2")
        }
    }

    @Test func aGroupChangeReportsItsOwnJobsNotThePass() async throws {
        try await TestServer.run { server in
            try await HostileServer.run(inFrontOf: server) { hostile in
                let (alice, bob, bobId) = try await Self.aliceThrough(hostile, andBobOn: server)
                let (groupId, created) = try await alice.createGroup(title: "A", members: [bobId])
                #expect(created.status == .sent && created.timestamp != nil)
                // The server busy: the change waits, and says so.
                hostile.on("PUT", "/v1/messages/", .answer(status: 503, body: Array(#"{"code":"unavailable","message":"later"}"#.utf8)))
                #expect(try await alice.updateGroup(groupId, title: "B").status == .queued)
                let queuedChange = try await alice.updateGroup(groupId, title: "B2", attempt: .queueOnly)
                #expect(queuedChange.status == .queued)
                #expect(try alice.isQueued(actSentAt: try #require(queuedChange.timestamp), groupChange: true))
                #expect(try await alice.sendQueued().failed == 0)
                #expect(try !alice.isQueued(actSentAt: try #require(queuedChange.timestamp), groupChange: true))
                _ = try await bob.receive()
                #expect(try bob.group(id: groupId)?.title == "B2")
                // Another job failing in the same pass is not this change's failure.
                hostile.on("PUT", "/v1/messages/", .answer(status: 400, body: Array(#"{"code":"bad_request","message":"no"}"#.utf8)))
                try await alice.send(MessageDraft(body: "refused"), to: .person(bobId), attempt: .queueOnly)
                let renamed = try await alice.updateGroup(groupId, title: "C")
                #expect(renamed.status == .sent && renamed.jobs.failed == 1)
                // Nothing to change: nothing queued, nothing to wait for.
                let unchanged = try await alice.updateGroup(groupId, title: "C")
                #expect(unchanged.status == .sent && unchanged.timestamp == nil)
            }
        }
    }

    @Test func eventStreamsEndWhenTheClientShutsDown() async throws {
        try await TestServer.run { server in
            let alice = try server.client("alice")
            let events = alice.events()
            let reading = Task { for await _ in events {} }
            await alice.shutdown()
            let ended = await Self.collect(
                AsyncStream { continuation in
                    Task {
                        await reading.value
                        continuation.yield(.connection(up: false))
                        continuation.finish()
                    }
                }
            ) { !$0.isEmpty }
            #expect(!ended.isEmpty, "the for-await loop over events() ended")
        }
    }

    @Test func aServerURLWithoutASchemeIsRefusedBeforeAnythingIsMade() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-url-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        for url in ["example.org:8080", "localhost", "http://", "ftp://example.org"] {
            #expect(
                throwsParleyError(
                    { if case .invalidArgument(let text) = $0 { text.contains("http://") } else { false } },
                    {
                        try ParleyClient.open(accountDirectory: directory, server: url)
                    }))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path), "a refused URL leaves no account directory behind")
        // An upper-case scheme is taken, in lower case (the socket's wss:// is made from it).
        #expect(try ParleyClient.checkedServerURL("HTTPS://Example.org:8443/") == "https://Example.org:8443/")
        #expect(try ParleyClient.checkedServerURL("http://[::1]:8080") == "http://[::1]:8080")
    }

    @Test func aSubscriberThatStopsReadingKeepsOnlyTheNewestEventsAndGoesWhenReleased() async throws {
        let hub = ClientEvents()
        do {
            let stream = hub.subscribe()
            #expect(hub.count == 1)
            for index in 0..<(ClientEvents.bufferLimit + 500) {
                hub.publish(.sendFailed(messageId: Int64(index), timestamp: nil, reason: ""))
            }
            var iterator = stream.makeAsyncIterator()
            let first = await iterator.next()
            #expect(first == .sendFailed(messageId: 500, timestamp: nil, reason: ""), "the oldest 500 were dropped")
        }
        #expect(hub.count == 0)
    }

    @Test func theInboxComesInPagesAndOneConversationByItsId() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("inbox-pages-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let database = try ParleyDatabase(
            path: root.appendingPathComponent("client.sqlite").path, key: try DatabaseKey(bytes: [UInt8](repeating: 7, count: 32)))
        let client = ParleyClient(
            database: database, api: ParleyServerClient(baseURL: "http://127.0.0.1:9", http: HTTPClient.shared),
            attachmentDirectory: root.appendingPathComponent("attachments"))
        var ids: [Int64] = []
        for index in 1...25 {
            ids.append(
                try client.seedConversation(
                    with: "account-\(index)", username: "user\(index)", messages: 2, firstTimestamp: UInt64(index * 100)
                ) { "message \($0) of \(index)" })
        }
        let all = try client.conversations()
        #expect(try client.conversationCount() == 25)
        #expect(try client.conversations(offset: 0, limit: 10) == Array(all[0..<10]))
        #expect(try client.conversations(offset: 20, limit: 10) == Array(all[20..<25]))
        #expect(try client.conversations(offset: 30, limit: 10).isEmpty)
        #expect(try client.conversation(id: ids[3]) == all.first { $0.conversationId == ids[3] })
        #expect(try client.conversation(id: 999_999) == nil)
        #expect(throws: ParleyError.self) { try client.conversations(offset: 0, limit: 0) }
        #expect(throws: ParleyError.self) { try client.conversations(offset: -1, limit: 5) }
    }

    @Test func pinnedConversationsComeFirstTheLatestPinnedOnTopAtMostFour() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("inbox-pins-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let clock = TestClock()
        let client = ParleyClient(
            database: try ParleyDatabase(
                path: root.appendingPathComponent("client.sqlite").path, key: try DatabaseKey(bytes: [UInt8](repeating: 7, count: 32))),
            api: ParleyServerClient(baseURL: "http://127.0.0.1:9", http: HTTPClient.shared),
            attachmentDirectory: root.appendingPathComponent("attachments"), now: clock.source)
        var ids: [Int64] = []
        for index in 1...6 {
            ids.append(
                try client.seedConversation(
                    with: "account-\(index)", username: "user\(index)", messages: 1, firstTimestamp: UInt64(index * 100)
                ) { "message \($0) of \(index)" })
        }
        // Unpinned: the most recent first.
        #expect(try client.conversations().map(\.conversationId) == ids.reversed())
        try client.pin(conversationId: ids[1])
        clock.advance(by: 1)
        try client.pin(conversationId: ids[0])
        clock.advance(by: 1)
        try client.pin(conversationId: ids[1])  // pinned already: keeps its place
        let inbox = try client.conversations()
        #expect(inbox.map(\.conversationId) == [ids[0], ids[1], ids[5], ids[4], ids[3], ids[2]])
        #expect(inbox.map(\.isPinned) == [true, true, false, false, false, false])
        #expect(try client.conversations(offset: 1, limit: 2).map(\.conversationId) == [ids[1], ids[5]])
        try client.pin(conversationId: ids[2])
        try client.pin(conversationId: ids[3])
        #expect(throws: ParleyError.invalidArgument("at most 4 conversations can be pinned: unpin one first")) {
            try client.pin(conversationId: ids[4])
        }
        try client.pin(conversationId: ids[0], false)
        try client.pin(conversationId: ids[4])
        #expect(try client.conversation(id: ids[0])?.isPinned == false)
        #expect(throws: ParleyError.invalidArgument("no conversation 999999")) { try client.pin(conversationId: 999_999) }
        // The JSON the CLI and the daemon print carries it; a summary without it (older output) reads as unpinned.
        let summary = try #require(try client.conversation(id: ids[4]))
        let json = try JSONEncoder().encode(summary)
        #expect(try JSONDecoder().decode(ConversationSummary.self, from: json) == summary)
        var object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect((object["pinnedAt"] as? NSNumber)?.uint64Value == clock.now)
        object["pinnedAt"] = nil
        let older = try JSONDecoder().decode(ConversationSummary.self, from: try JSONSerialization.data(withJSONObject: object))
        #expect(older.pinnedAt == 0)
    }
}
