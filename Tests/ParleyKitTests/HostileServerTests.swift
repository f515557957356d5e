import Foundation
import ParleyAPI
import Testing

@_spi(Inspection) @testable import ParleyKit

/// ParleyKit against a server that lies (``HostileServer`` in front of a real one): lost answers, forged bundles,
/// garbage and replayed envelopes, malformed, truncated and endless bodies, attachments whose digest lies. Every case
/// ends in a typed error or a recorded refusal; nothing crashes, and nothing already stored is lost.
@Suite struct HostileServerTests {
    /// Alice on the real server and Bob behind `hostile`, both registered.
    static func aliceAndBob(_ server: TestServer, bobThrough hostile: HostileServer) async throws
        -> (alice: ParleyClient, bob: ParleyClient, aliceId: String, bobId: String)
    {
        let alice = try server.client("alice")
        let bob = try server.client("bob", via: hostile.baseURL)
        let aliceId = try await alice.accounts.register(username: "alice").accountId
        let bobId = try await bob.accounts.register(username: "bob").accountId
        return (alice, bob, aliceId, bobId)
    }

    static func texts(_ client: ParleyClient, with accountId: String) throws -> [String] {
        guard let conversation = try client.conversationId(with: accountId) else { return [] }
        return try client.history(conversationId: conversation).messages.reversed().compactMap(\.body)
    }

    /// `body` (JSON) with `change` applied to it as a dictionary.
    static func editJSON(_ body: [UInt8], _ change: (inout [String: Any]) -> Void) -> [UInt8] {
        guard var object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else { return body }
        change(&object)
        return [UInt8]((try? JSONSerialization.data(withJSONObject: object)) ?? Data(body))
    }

    @Test func aLostAnswerToASendIsRetriedAndStoredOnce() async throws {
        try await TestServer.run { server in
            try await HostileServer.run(inFrontOf: server) { hostile in
                let alice = try server.client("alice", via: hostile.baseURL)
                let bob = try server.client("bob")
                let aliceId = try await alice.accounts.register(username: "alice").accountId
                let bobId = try await bob.accounts.register(username: "bob").accountId
                // The server stores Alice's message, but the answer never reaches her: a 502 from the proxy.
                hostile.on("PUT", "/v1/messages/", .loseAnswer)
                let messageId = try alice.sender.enqueue(body: "only once", to: bobId)
                #expect(try await alice.runJobs().deferred == 1)
                #expect(try await server.storedEnvelopes(accountId: bobId, deviceId: 1).count == 1)
                #expect(try alice.message(id: messageId)?.status == .sending)
                // The job runs again with the same Idempotency-Key: the server answers with the first 200, stores nothing.
                #expect(try await alice.runJobs(includingWaiting: true).completed == 1)
                #expect(try await server.storedEnvelopes(accountId: bobId, deviceId: 1).count == 1)
                #expect(try alice.message(id: messageId)?.status == .sent)
                #expect(hostile.requests.filter { $0 == "PUT /v1/messages/\(bobId)" }.count == 2)
                #expect(try await bob.receiveOnce().count == 1)
                #expect(try Self.texts(bob, with: aliceId) == ["only once"])

                // An act the server turns away for now (503) is still queued, whichever pass ran it; once it goes out
                // it is not. (The daemon answers signal-cli's NETWORK_FAILURE or SUCCESS from this.)
                hostile.on("PUT", "/v1/messages/", .answer(status: 503, body: Array(#"{"code":"unavailable","message":"later"}"#.utf8)))
                let reaction = try alice.sender.react("👍", to: messageId)
                #expect(try await alice.runJobs().deferred == 1)
                #expect(try alice.isQueued(actSentAt: reaction))
                #expect(try !alice.isQueued(actSentAt: reaction + 1))
                #expect(try await alice.runJobs(includingWaiting: true).completed == 1)
                #expect(try !alice.isQueued(actSentAt: reaction) && !alice.actFailed(sentAt: reaction))
                // One the server refuses for good is gone from the queue too, and known as failed.
                hostile.on("PUT", "/v1/messages/", .answer(status: 400, body: Array(#"{"code":"bad_request","message":"no"}"#.utf8)))
                let refused = try alice.sender.react("🎉", to: messageId)
                #expect(try await alice.runJobs().failed == 1)
                #expect(try !alice.isQueued(actSentAt: refused) && alice.actFailed(sentAt: refused))
            }
        }
    }

    @Test func aForgedBundleIsRefusedAndTheNextHonestOneWorks() async throws {
        try await TestServer.run { server in
            try await HostileServer.run(inFrontOf: server) { hostile in
                let alice = try server.client("alice", via: hostile.baseURL)
                let bob = try server.client("bob")
                let aliceId = try await alice.accounts.register(username: "alice").accountId
                let bobId = try await bob.accounts.register(username: "bob").accountId
                // The signed prekey's signature does not verify under Bob's identity key.
                hostile.on(
                    "GET", "/v1/keys/",
                    .rewrite({ body in
                        Self.editJSON(body) { bundle in
                            guard var devices = bundle["devices"] as? [[String: Any]],
                                var signed = devices.first?["signedPreKey"] as? [String: Any],
                                let signature = (signed["signature"] as? String).flatMap({ Data(base64Encoded: $0) })
                            else { return }
                            var forged = [UInt8](signature)
                            forged[0] ^= 1
                            signed["signature"] = Data(forged).base64EncodedString()
                            devices[0]["signedPreKey"] = signed
                            bundle["devices"] = devices
                        }
                    }))
                let refused = try alice.sender.enqueue(body: "to a forged bundle", to: bobId)
                #expect(try await alice.runJobs() == ParleyClient.JobReport(failed: 1))
                let failure = try #require(try alice.failure(ofMessage: refused))
                #expect(failure.reason.lowercased().contains("signature"), "\(failure.reason)")
                #expect(try await server.storedEnvelopes(accountId: bobId, deviceId: 1).isEmpty, "nothing went out")
                // The next bundle is honest: a session is made and the message goes.
                try alice.sender.enqueue(body: "to the real bundle", to: bobId)
                #expect(try await alice.runJobs().completed == 1)
                _ = try await bob.receiveOnce()
                #expect(try Self.texts(bob, with: aliceId) == ["to the real bundle"])
                #expect(try alice.message(id: refused)?.status == .failed, "the refused message stays recorded as failed")
            }
        }
    }

    /// A server that hands a reaction over before the message it concerns: the reaction is held, and the same drain
    /// reports it right after the message is stored — the sequence `listen` reports, so the daemon's `receive` and
    /// `parley receive` tell of it too.
    @Test func aDrainReportsTheActsAMessageReleasesRightAfterIt() async throws {
        try await TestServer.run { server in
            try await HostileServer.run(inFrontOf: server) { hostile in
                let (alice, bob, aliceId, bobId) = try await Self.aliceAndBob(server, bobThrough: hostile)
                try alice.sender.enqueue(body: "hello", to: bobId)
                _ = try await alice.runJobs()
                _ = try await bob.receiveOnce()
                let message = try alice.sender.enqueue(body: "react to me", to: bobId)
                _ = try await alice.runJobs()
                try alice.sender.react("🎉", to: message)
                _ = try await alice.runJobs()
                hostile.on(
                    "GET", "/v1/messages",
                    .rewrite({ body in
                        guard let page = try? JSONDecoder().decode(EnvelopeListResponse.self, from: Data(body)) else { return body }
                        let reversed = EnvelopeListResponse(messages: page.messages.reversed(), more: page.more)
                        return [UInt8]((try? JSONEncoder().encode(reversed)) ?? Data(body))
                    }))
                let outcomes = try await bob.receiveOnce()
                #expect(outcomes.first == .held, "\(outcomes)")
                let sentAt = try #require(try alice.message(id: message)?.timestamp)
                let stored = try #require(outcomes.firstIndex { if case .stored = $0 { true } else { false } }, "\(outcomes)")
                #expect(outcomes.count == stored + 2, "\(outcomes)")
                guard outcomes.count > stored + 1, case .acted(let act) = outcomes[stored + 1] else { return }
                #expect(act.authorAccountId == aliceId)
                #expect(act.kind == .reaction(emoji: "🎉", remove: false, targetAuthorAccountId: aliceId, targetTimestamp: sentAt))
                #expect(try Self.texts(bob, with: aliceId) == ["hello", "react to me"])
            }
        }
    }

    @Test func garbageAndReplayedEnvelopesAreRecordedRefusalsNotCrashes() async throws {
        try await TestServer.run { server in
            try await HostileServer.run(inFrontOf: server) { hostile in
                let (alice, bob, aliceId, bobId) = try await Self.aliceAndBob(server, bobThrough: hostile)
                try alice.sender.enqueue(body: "hello", to: bobId)
                #expect(try await alice.runJobs().completed == 1)
                // The page Bob fetches: the real envelope, a replay of it under another guid, then garbage of every kind the
                // decoder may meet.
                let random = (0..<200).map { _ in UInt8.random(in: 0...255) }
                func fake(_ guid: String, type: UInt8, content: String, source: String? = aliceId) -> Envelope {
                    Envelope(
                        guid: guid, sourceAccountId: source, sourceDeviceId: source == nil ? nil : 1, type: type, content: content,
                        timestamp: 5, serverTimestamp: 6)
                }
                let garbage = [
                    fake("g1", type: 2, content: "%%% not base64 %%%"),
                    fake("g2", type: 2, content: Data(random).base64EncodedString()),
                    fake("g3", type: 3, content: Data([0x33] + random).base64EncodedString()),
                    fake("g4", type: 6, content: Data(random).base64EncodedString(), source: nil),
                    fake("g5", type: 99, content: Data(random).base64EncodedString()),
                    fake("g6", type: 2, content: "", source: String(repeating: "x", count: 5_000)),
                    fake("g7", type: 8, content: Data([0xC0] + random).base64EncodedString()),
                ]
                hostile.on(
                    "GET", "/v1/messages",
                    .rewrite({ body in
                        guard let page = try? JSONDecoder().decode(EnvelopeListResponse.self, from: Data(body)) else { return body }
                        let replayed = page.messages.map { original in
                            Envelope(
                                guid: UUID().uuidString.lowercased(), sourceAccountId: original.sourceAccountId,
                                sourceDeviceId: original.sourceDeviceId, type: original.type, content: original.content,
                                timestamp: original.timestamp, serverTimestamp: original.serverTimestamp)
                        }
                        let messages = page.messages + replayed + garbage
                        return [UInt8]((try? JSONEncoder().encode(EnvelopeListResponse(messages: messages, more: false))) ?? Data(body))
                    }))
                let outcomes = try await bob.receiveOnce()
                #expect(outcomes.count == 9)
                #expect(outcomes.filter { if case .stored = $0 { true } else { false } }.count == 1)
                #expect(outcomes[1] == .duplicate, "the replayed envelope is not stored twice")
                for outcome in outcomes.dropFirst(2) {
                    switch outcome {
                    case .undecryptable, .rejected: break
                    default: Issue.record("garbage was taken for \(outcome)")
                    }
                }
                #expect(try Self.texts(bob, with: aliceId) == ["hello"])
                // Every envelope was acknowledged (those the server never had are gone already): the mailbox is empty.
                #expect(try await server.storedEnvelopes(accountId: bobId, deviceId: 1).isEmpty)
                // The session still works after all that.
                try alice.sender.enqueue(body: "still here", to: bobId)
                #expect(try await alice.runJobs().completed >= 1)
                _ = try await bob.receiveOnce()
                #expect(try Self.texts(bob, with: aliceId) == ["hello", "still here"])
            }
        }
    }

    @Test func aServerHandingOutTheSamePageForeverCannotKeepTheClientReceiving() async throws {
        try await TestServer.run { server in
            try await HostileServer.run(inFrontOf: server) { hostile in
                let (alice, bob, aliceId, bobId) = try await Self.aliceAndBob(server, bobThrough: hostile)
                try alice.sender.enqueue(body: "once", to: bobId)
                _ = try await alice.runJobs()
                // Every fetch answers the real page again, claiming more is waiting.
                hostile.on(
                    "GET", "/v1/messages", times: 1_000,
                    .rewrite({ body in
                        guard let page = try? JSONDecoder().decode(EnvelopeListResponse.self, from: Data(body)) else { return body }
                        return [UInt8]((try? JSONEncoder().encode(EnvelopeListResponse(messages: page.messages, more: true))) ?? Data(body))
                    }))
                hostile.on("DELETE", "/v1/messages/", times: 1_000, .answer(status: 204, body: []))
                let outcomes = try await bob.receiveOnce()
                #expect(outcomes.count == 1)
                #expect(hostile.requests.filter { $0 == "GET /v1/messages" }.count == 2, "it stops when a page brings nothing new")
                #expect(try Self.texts(bob, with: aliceId) == ["once"])
            }
        }
    }

    @Test func malformedTruncatedAndEndlessAnswersAreTypedErrors() async throws {
        try await TestServer.run { server in
            try await HostileServer.run(inFrontOf: server) { hostile in
                let (alice, bob, aliceId, bobId) = try await Self.aliceAndBob(server, bobThrough: hostile)
                try alice.sender.enqueue(body: "kept", to: bobId)
                _ = try await alice.runJobs()
                _ = try await bob.receiveOnce()
                #expect(try Self.texts(bob, with: aliceId) == ["kept"])
                try alice.sender.enqueue(body: "waits", to: bobId)
                _ = try await alice.runJobs()

                let answers: [(HostileServer.Action, String)] = [
                    (.answer(status: 200, body: Array(#"{"messages":[{"guid":"#.utf8)), "truncated JSON"),
                    (.answer(status: 200, body: Array(#"{"messages":"nope","more":7}"#.utf8)), "wrong types"),
                    (.answer(status: 200, body: [0xFF, 0xFE, 0x00, 0x01]), "not JSON"),
                    (.answer(status: 500, body: Array("<html>".utf8)), "a 500 with HTML"),
                    (.answer(status: 200, body: []), "an empty body"),
                    (.endlessBody, "a body that never ends"),
                ]
                for (action, name) in answers {
                    hostile.on("GET", "/v1/messages", action)
                    await #expect(throws: ParleyError.self, "\(name)") { try await bob.receiveOnce() }
                }
                // Nothing stored was lost, and the waiting message arrives once the server answers honestly.
                #expect(try Self.texts(bob, with: aliceId) == ["kept"])
                _ = try await bob.receiveOnce()
                #expect(try Self.texts(bob, with: aliceId) == ["kept", "waits"])
            }
        }
    }

    @Test func attachmentsWhoseBytesLieOrNeverEndAreRefused() async throws {
        try await TestServer.run { server in
            try await HostileServer.run(inFrontOf: server) { hostile in
                let (alice, bob, _, bobId) = try await Self.aliceAndBob(server, bobThrough: hostile)
                let file = server.directory.appendingPathComponent("photo.bin")
                let photo = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
                try photo.write(to: file)
                try alice.sender.enqueue(body: "a photo", to: bobId, attachments: [file])
                #expect(try await alice.runJobs().completed == 1)
                _ = try await bob.receiveOnce()
                let conversation = try #require(try bob.conversationId(with: try alice.credentials().accountId))
                let message = try #require(try bob.history(conversationId: conversation).messages.first)
                let attachment = try #require(try bob.attachments(ofMessage: message.id).first)
                let out = server.directory.appendingPathComponent("photo.out")

                hostile.on(
                    "GET", "/v1/attachments/",
                    .rewrite({ body in
                        var changed = body
                        if !changed.isEmpty { changed[changed.count / 2] ^= 1 }
                        return changed
                    }))
                await #expect(throws: ParleyError.attachment(.digestMismatch)) { try await bob.downloadAttachment(attachment.id, to: out) }
                hostile.on("GET", "/v1/attachments/", .rewrite({ body in Array(body.dropLast(100)) }))
                await #expect(throws: ParleyError.self) { try await bob.downloadAttachment(attachment.id, to: out) }
                hostile.on("GET", "/v1/attachments/", .endlessBody)
                await #expect(throws: ParleyError.self) { try await bob.downloadAttachment(attachment.id, to: out) }
                #expect(!FileManager.default.fileExists(atPath: out.path), "nothing half-written is left at the destination")
                // The honest bytes still download.
                try await bob.downloadAttachment(attachment.id, to: out)
                #expect(try Data(contentsOf: out) == photo)
            }
        }
    }
}
