import CParleyDatabase
import Foundation
import GRDB
import Testing

@_spi(Inspection) @testable import ParleyKit

/// The message kinds people use — replies, reactions, edits, deletes, receipts, typing, disappearing messages,
/// voice notes — end to end through a real in-process server: three accounts, four devices.
@Suite(.serialized) struct ConversationFeatureTests {
    struct People {
        let alice: ParleyClient, bobPhone: ParleyClient, bobLaptop: ParleyClient, carol: ParleyClient
        let aliceId: String, bobId: String, carolId: String
    }

    static func people(_ server: TestServer, clock: TestClock = TestClock()) async throws -> People {
        let alice = try server.client("alice", now: clock.source)
        let bobPhone = try server.client("bob-phone", now: clock.source)
        let bobLaptop = try server.client("bob-laptop", now: clock.source)
        let carol = try server.client("carol", now: clock.source)
        let aliceId = try await alice.accounts.register(username: "alice").accountId
        let bobId = try await bobPhone.accounts.register(username: "bob").accountId
        let carolId = try await carol.accounts.register(username: "carol").accountId
        try await bobPhone.accounts.linkNewDevice(database: bobLaptop.database, name: "laptop")
        return People(
            alice: alice, bobPhone: bobPhone, bobLaptop: bobLaptop, carol: carol, aliceId: aliceId, bobId: bobId, carolId: carolId)
    }

    static func messages(_ client: ParleyClient, with accountId: String) throws -> [StoredMessage] {
        guard let conversation = try client.conversationId(with: accountId) else { return [] }
        return try client.history(conversationId: conversation).messages.reversed()
    }

    static func rowCount(_ client: ParleyClient, _ sql: String) throws -> Int {
        try client.database.read { db in try Int.fetchOne(db, sql: sql) ?? 0 }
    }

    @Test func repliesReactionsEditsAndDeletesReachEveryDeviceOnce() async throws {
        try await TestServer.run { server in
            let p = try await Self.people(server)
            let original = try p.alice.sender.enqueue(body: "lunch at noon?", to: p.bobId)
            _ = try await p.alice.runJobs()
            _ = try await p.bobPhone.receiveOnce()
            _ = try await p.bobLaptop.receiveOnce()
            let bobsCopy = try #require(try Self.messages(p.bobPhone, with: p.aliceId).first)

            // A reply quotes the message (author + timestamp); Alice's copy links to her original.
            try p.bobPhone.sender.enqueue(body: "yes!", to: p.aliceId, replyTo: bobsCopy.id)
            // One reaction per person: 👍, then replaced by ❤️.
            try p.bobPhone.sender.react("👍", to: bobsCopy.id)
            try p.bobPhone.sender.react("❤️", to: bobsCopy.id)
            _ = try await p.bobPhone.runJobs()
            _ = try await p.alice.receiveOnce()
            let aliceView = try Self.messages(p.alice, with: p.bobId)
            #expect(aliceView.map(\.body) == ["lunch at noon?", "yes!"])
            #expect(aliceView[1].replyToId == original)
            #expect(aliceView[0].reactions == [StoredReaction(authorAccountId: p.bobId, emoji: "❤️")])
            // Bob's laptop got the same reaction from the phone's transcript.
            _ = try await p.bobLaptop.receiveOnce()
            #expect(try Self.messages(p.bobLaptop, with: p.aliceId).first?.reactions.map(\.emoji) == ["❤️"])

            // Withdrawing the reaction removes it.
            try p.bobPhone.sender.react("", to: bobsCopy.id, remove: true)
            _ = try await p.bobPhone.runJobs()
            _ = try await p.alice.receiveOnce()
            #expect(try Self.messages(p.alice, with: p.bobId)[0].reactions.isEmpty)

            // Alice edits: every copy shows the new text as edited; the earlier text is kept as history.
            try p.alice.sender.edit(original, body: "lunch at 1pm?")
            _ = try await p.alice.runJobs()
            _ = try await p.bobPhone.receiveOnce()
            _ = try await p.bobLaptop.receiveOnce()
            for client in [p.bobPhone, p.bobLaptop] {
                let edited = try #require(try Self.messages(client, with: p.aliceId).first)
                #expect(edited.body == "lunch at 1pm?" && edited.editedAt != nil)
                #expect(try client.database.read { db in try MessageLookup.editHistory(edited.id, db) } == ["lunch at noon?"])
            }
            // Stored once: the edit is no new row anywhere.
            #expect(try Self.rowCount(p.bobPhone, "SELECT count(*) FROM messages") == 2)

            // Bob may not edit or delete Alice's message: refused locally…
            #expect(throws: ParleyError.self) { try p.bobPhone.sender.edit(bobsCopy.id, body: "hacked") }
            #expect(throws: ParleyError.self) { try p.bobPhone.sender.deleteForEveryone(bobsCopy.id) }
            // …and by Alice's client when a modified client sends it anyway.
            let bobCredentials = try p.bobPhone.credentials()
            for forged in [
                DataMessage(body: "hacked", editTarget: bobsCopy.timestamp), DataMessage(body: nil, deleteTarget: bobsCopy.timestamp),
            ] {
                try await p.bobPhone.delivery.deliver(
                    MessageContent(dataMessage: forged), to: p.aliceId,
                    timestamp: UInt64(Date().timeIntervalSince1970 * 1000), as: bobCredentials)
                let outcomes = try await p.alice.receiveOnce()
                #expect(outcomes.count == 1)
                guard case .rejected = outcomes.first else {
                    Issue.record("a forged change was not rejected: \(outcomes)")
                    continue
                }
            }
            #expect(try Self.messages(p.alice, with: p.bobId)[0].body == "lunch at 1pm?")

            // Delete for everyone: a tombstone on every device, its text, history and reactions gone.
            try p.bobPhone.sender.react("😂", to: bobsCopy.id)
            _ = try await p.bobPhone.runJobs()
            _ = try await p.alice.receiveOnce()
            try p.alice.sender.deleteForEveryone(original)
            _ = try await p.alice.runJobs()
            _ = try await p.bobPhone.receiveOnce()
            _ = try await p.bobLaptop.receiveOnce()
            for client in [p.alice, p.bobPhone, p.bobLaptop] {
                let other = client === p.alice ? p.bobId : p.aliceId
                let tombstone = try #require(try Self.messages(client, with: other).first)
                #expect(tombstone.deleted && tombstone.body == nil && tombstone.reactions.isEmpty)
                #expect(try Self.rowCount(client, "SELECT count(*) FROM message_edits") == 0)
                #expect(try Self.rowCount(client, "SELECT count(*) FROM messages m WHERE m.body LIKE '%lunch%'") == 0)
            }
            #expect(try p.bobPhone.conversations().first?.lastMessagePreview != "lunch at 1pm?")
            // Nothing can act on a deleted message.
            #expect(throws: ParleyError.self) { try p.bobPhone.sender.react("👍", to: bobsCopy.id) }
        }
    }

    /// A delete for everyone erases the message's content from the database file and, on both ends, from its
    /// write-ahead log, which is emptied once the delete commits (its old page images would stay there otherwise).
    @Test func aDeleteForEveryoneEmptiesTheWriteAheadLogOnBothEnds() async throws {
        try await TestServer.run { server in
            let p = try await Self.people(server)
            func walBytes(_ client: ParleyClient) -> Int {
                ((try? FileManager.default.attributesOfItem(atPath: client.database.path + "-wal"))?[.size] as? Int) ?? 0
            }
            let original = try p.alice.sender.enqueue(body: "regrettable", to: p.bobId)
            _ = try await p.alice.runJobs()
            _ = try await p.bobPhone.receiveOnce()
            _ = try p.alice.sender.deleteForEveryone(original)
            #expect(walBytes(p.alice) == 0)
            _ = try await p.alice.runJobs()
            let envelopes = try await p.bobPhone.api.mailbox(as: try p.bobPhone.credentials()).messages
            #expect(walBytes(p.bobPhone) > 0)
            for envelope in envelopes { _ = try await p.bobPhone.receiver.process(envelope) }
            #expect(walBytes(p.bobPhone) == 0)
            #expect(try Self.messages(p.bobPhone, with: p.aliceId).first?.deleted == true)
        }
    }

    @Test func mentionsReachEveryDeviceAndFollowEditsAndDeletes() async throws {
        try await TestServer.run { server in
            let p = try await Self.people(server)
            // "👋" is two UTF-16 units: the mention of Bob starts at 3.
            let text = "👋 @bob, lunch?"
            let original = try p.alice.sender.enqueue(body: text, to: p.bobId, mentions: [Mention(accountId: p.bobId, start: 3, length: 4)])
            _ = try await p.alice.runJobs()
            _ = try await p.bobPhone.receiveOnce()
            _ = try await p.bobLaptop.receiveOnce()
            for client in [p.bobPhone, p.bobLaptop] {
                let received = try #require(try Self.messages(client, with: p.aliceId).first)
                #expect(received.body == text && received.mentions == [Mention(accountId: p.bobId, start: 3, length: 4)])
            }
            #expect(try p.alice.message(id: original)?.mentions.map(\.accountId) == [p.bobId])

            // An edit carries the new text's mentions; a delete for everyone erases them.
            try p.alice.sender.edit(
                original, body: "\u{FFFC} and \u{FFFC}",
                mentions: [
                    Mention(accountId: p.bobId, start: 0, length: 1), Mention(accountId: p.aliceId, start: 6, length: 1),
                ])
            _ = try await p.alice.runJobs()
            let editOutcomes = try await p.bobPhone.receiveOnce()
            #expect(try Self.messages(p.bobPhone, with: p.aliceId).first?.mentions.map(\.start) == [0, 6])
            // Front doors hear of the edit with its mentions (signal-cli's editMessage).
            #expect(
                editOutcomes.contains { outcome in
                    guard case .acted(let act) = outcome, case .edit(_, _, let mentions) = act.kind else { return false }
                    return mentions.map(\.accountId) == [p.bobId, p.aliceId]
                }, "\(editOutcomes)")
            try p.alice.sender.deleteForEveryone(original)
            _ = try await p.alice.runJobs()
            _ = try await p.bobPhone.receiveOnce()
            _ = try await p.bobLaptop.receiveOnce()
            for client in [p.alice, p.bobPhone, p.bobLaptop] {
                let other = client === p.alice ? p.bobId : p.aliceId
                #expect(try Self.messages(client, with: other).first?.mentions == [])
                #expect(try Self.rowCount(client, "SELECT count(*) FROM messages WHERE mentions IS NOT NULL") == 0)
            }

            // A long text travels as an attachment with its start inline, cut between characters; its mentions must
            // fall in the inline part. Here U+FFFC (3 UTF-8 bytes) straddles the 2,048-byte cut.
            let long = "\u{FFFC}" + String(repeating: "a", count: 2044) + "\u{FFFC}" + String(repeating: "b", count: 100)
            #expect(throws: ParleyError.self) {
                try p.alice.sender.enqueue(body: long, to: p.bobId, mentions: [Mention(accountId: p.bobId, start: 2045, length: 1)])
            }
            try p.alice.sender.enqueue(body: long, to: p.bobId, mentions: [Mention(accountId: p.bobId, start: 0, length: 1)])
            _ = try await p.alice.runJobs()
            _ = try await p.bobPhone.receiveOnce()
            let longCopy = try #require(try Self.messages(p.bobPhone, with: p.aliceId).last)
            #expect(longCopy.mentions == [Mention(accountId: p.bobId, start: 0, length: 1)])
            #expect(longCopy.body?.hasSuffix("a") == true && longCopy.body?.contains("\u{FFFD}") == false, "cut between characters")

            // A mention outside the text is refused before anything is stored.
            #expect(throws: ParleyError.self) {
                try p.alice.sender.enqueue(body: "hi", to: p.bobId, mentions: [Mention(accountId: p.bobId, start: 2, length: 1)])
            }
            // Jobs queued before mentions existed (no `mentions` key) still decode.
            let legacy = #"{"attachments":[],"expireTimer":0,"isTimerUpdate":false,"body":"old"}"#
            #expect(try JSONDecoder().decode(DataMessage.self, from: Data(legacy.utf8)) == DataMessage(body: "old"))
        }
    }

    @Test func theAuthorWindowClosesAfterADay() throws {
        let database = try ParleyDatabase(
            path: FileManager.default.temporaryDirectory.appendingPathComponent("window-\(UUID()).sqlite").path,
            key: try DatabaseKey(bytes: [UInt8](repeating: 9, count: 32)))
        let sent: UInt64 = 1_700_000_000_000
        try database.write { db in
            let origin = ConversationActions.Origin(
                author: "alice", authorDevice: 1, timestamp: sent, serverTimestamp: sent, peer: "alice",
                outgoing: false, status: .received, now: sent)
            #expect(try ConversationActions.apply(DataMessage(body: "first"), from: origin, db) != .duplicate)
            var late = origin
            late.timestamp = sent + ConversationActions.authorWindowMilliseconds + 1
            late.serverTimestamp = late.timestamp
            guard case .rejected = try ConversationActions.apply(DataMessage(body: "too late", editTarget: sent), from: late, db) else {
                Issue.record("an edit after 24 hours was applied")
                return
            }
            var inTime = origin
            inTime.timestamp = sent + 60_000
            inTime.serverTimestamp = inTime.timestamp
            #expect(try ConversationActions.apply(DataMessage(body: "second", editTarget: sent), from: inTime, db) == .applied)
            // The same edit delivered again changes nothing.
            #expect(try ConversationActions.apply(DataMessage(body: "second", editTarget: sent), from: inTime, db) == .duplicate)
        }
    }

    @Test func reactionsKeepTheirOrderAndStayInTheirConversation() throws {
        let database = try ParleyDatabase(
            path: FileManager.default.temporaryDirectory.appendingPathComponent("react-\(UUID()).sqlite").path,
            key: try DatabaseKey(bytes: [UInt8](repeating: 8, count: 32)))
        try database.write { db in
            func origin(_ author: String, at time: UInt64, peer: String) -> ConversationActions.Origin {
                ConversationActions.Origin(
                    author: author, authorDevice: 1, timestamp: time, serverTimestamp: time, peer: peer,
                    outgoing: false, status: .received, now: time)
            }
            _ = try ConversationActions.apply(DataMessage(body: "from bob"), from: origin("bob", at: 100, peer: "bob"), db)
            _ = try ConversationActions.apply(DataMessage(body: "from carol"), from: origin("carol", at: 100, peer: "carol"), db)
            let like = Reaction(emoji: "👍", targetAuthorAccountId: "bob", targetTimestamp: 100)
            var withdrawn = like
            withdrawn.remove = true
            #expect(
                try ConversationActions.apply(DataMessage(body: nil, reaction: withdrawn), from: origin("bob", at: 300, peer: "bob"), db)
                    == .applied)
            // The reaction sent before the withdrawal arrives late: it does not come back.
            #expect(
                try ConversationActions.apply(DataMessage(body: nil, reaction: like), from: origin("bob", at: 200, peer: "bob"), db)
                    == .duplicate)
            let bobsMessage = try #require(try MessagesTable.id(author: "bob", timestamp: 100, db))
            #expect(try MessageLookup.message(bobsMessage, db)?.reactions.isEmpty == true)
            // Carol cannot react to (or edit, or delete) a message of her conversation's neighbour.
            guard
                case .rejected = try ConversationActions.apply(
                    DataMessage(body: nil, reaction: like), from: origin("carol", at: 400, peer: "carol"), db)
            else {
                Issue.record("a reaction reached a message in another conversation")
                return
            }
        }
    }

    @Test func receiptsFollowTheSettingAndTypingExpires() async throws {
        try await TestServer.run { server in
            let clock = TestClock()
            let p = try await Self.people(server, clock: clock)
            let first = try p.alice.sender.enqueue(body: "are you there?", to: p.carolId)
            _ = try await p.alice.runJobs()
            _ = try await p.carol.receiveOnce()
            _ = try await p.carol.runJobs()  // the delivery receipt
            _ = try await p.alice.receiveOnce()
            #expect(try Self.messages(p.alice, with: p.carolId).first { $0.id == first }?.status == .delivered)

            // Carol turns read receipts off: reading sends none, Alice's message stays "delivered".
            try p.carol.updateSettings { $0.readReceipts = false }
            try p.carol.markRead(conversationId: try #require(try p.carol.conversationId(with: p.aliceId)))
            #expect(try await p.carol.runJobs() == ParleyClient.JobReport())
            #expect(try p.carol.conversations().first?.unreadCount == 0)

            // A message still being sent cannot be edited or deleted yet (its job would deliver the original).
            let pending = try p.alice.sender.enqueue(body: "on its way", to: p.carolId)
            #expect(throws: ParleyError.self) { try p.alice.sender.deleteForEveryone(pending) }
            _ = try await p.alice.runJobs()
            _ = try await p.carol.receiveOnce()

            // Typing: an ephemeral event over the socket; shown for 10 s unless stopped, never stored by the server.
            let listening = Task { try await p.carol.listen() }
            defer { listening.cancel() }
            try await Self.eventually {
                try await p.alice.sendTyping(.started, to: p.carolId) && p.carol.typingIndicators.isTyping(p.aliceId)
            }
            clock.advance(by: TypingIndicators.lifetime + 1)
            #expect(!p.carol.typingIndicators.isTyping(p.aliceId))
            try await Self.eventually {
                try await p.alice.sendTyping(.started, to: p.carolId) && p.carol.typingIndicators.isTyping(p.aliceId)
            }
            try await p.alice.sendTyping(.stopped, to: p.carolId)
            try await Self.eventually { !p.carol.typingIndicators.isTyping(p.aliceId) }
            // To Bob's two devices while Alice's session is still in its prekey stage, each copy is large: the
            // indicator goes in as many events as the server's 4 KiB limit needs, and both devices show it.
            try p.alice.sender.enqueue(body: "hi bob", to: p.bobId)
            _ = try await p.alice.runJobs()
            let phoneListening = Task { try await p.bobPhone.listen() }
            let laptopListening = Task { try await p.bobLaptop.listen() }
            defer {
                phoneListening.cancel()
                laptopListening.cancel()
            }
            try await Self.eventually {
                try await p.alice.sendTyping(.started, to: p.bobId)
                    && p.bobPhone.typingIndicators.isTyping(p.aliceId) && p.bobLaptop.typingIndicators.isTyping(p.aliceId)
            }
            phoneListening.cancel()
            laptopListening.cancel()
            listening.cancel()
            _ = await listening.result
            // Nothing was queued for Carol while the typing events flowed.
            #expect(try await p.carol.receiveOnce().isEmpty)
            #expect(try Self.rowCount(p.carol, "SELECT count(*) FROM messages") == 2)
        }
    }

    @Test func disappearingMessagesVanishFromTheDatabaseFile() async throws {
        try await TestServer.run { server in
            let clock = TestClock()
            let p = try await Self.peopleWithOneMinuteTimer(server, clock: clock)
            #expect(try p.bobPhone.conversations().first?.expireTimer == 60)
            #expect(try Self.messages(p.bobPhone, with: p.aliceId).first?.kind == .timerChange)

            let marker = "the-secret-is-XYZZY-\(UUID().uuidString)"
            try p.alice.sender.enqueue(body: marker, to: p.bobId)
            _ = try await p.alice.runJobs()
            _ = try await p.bobPhone.receiveOnce()
            let received = try #require(try Self.messages(p.bobPhone, with: p.aliceId).last)
            #expect(received.body == marker && received.expireTimer == 60 && received.expiresAt == nil)  // unread: not yet running
            // Alice's sent copy started its timer when it was sent.
            #expect(try Self.messages(p.alice, with: p.bobId).last?.expiresAt != nil)

            try p.bobPhone.markRead(conversationId: try #require(try p.bobPhone.conversationId(with: p.aliceId)))
            #expect(try Self.messages(p.bobPhone, with: p.aliceId).last?.expiresAt == clock.now + 60_000)
            #expect(try p.bobPhone.sweepExpiredMessages() == 0)
            #expect(try Self.databaseFileContains(marker, p.bobPhone))  // the check below can see the text

            clock.advance(by: 61_000)
            // A fresh client over the same database (as after a restart) sweeps what expired meanwhile.
            let restarted = ParleyClient(
                database: p.bobPhone.database, api: p.bobPhone.api, attachmentDirectory: p.bobPhone.attachmentDirectory,
                now: clock.source)
            #expect(try restarted.sweepExpiredMessages() == 1)
            #expect(try Self.messages(p.bobPhone, with: p.aliceId).map(\.body).contains(marker) == false)
            #expect(try !Self.databaseFileContains(marker, p.bobPhone))
            #expect(try p.alice.sweepExpiredMessages() == 1)
            #expect(try !Self.databaseFileContains(marker, p.alice))
        }
    }

    /// A disappearing message takes the files Parley keeps for it (the account's downloads folder) and leaves a copy the
    /// person exported elsewhere, as Signal leaves exported files (issue 48, item 6: the timer deleted those too).
    @Test func aDisappearingMessageTakesItsOwnFilesAndLeavesExports() async throws {
        try await TestServer.run { server in
            let clock = TestClock()
            let p = try await Self.peopleWithOneMinuteTimer(server, clock: clock)
            let first = server.directory.appendingPathComponent("map.bin")
            let second = server.directory.appendingPathComponent("route.bin")
            try Data(repeating: 1, count: 5_000).write(to: first)
            try Data(repeating: 2, count: 5_000).write(to: second)
            try p.alice.sender.enqueue(body: "the way up", to: p.bobId, attachments: [first, second])
            _ = try await p.alice.runJobs()
            _ = try await p.bobPhone.receiveOnce()
            let message = try #require(try Self.messages(p.bobPhone, with: p.aliceId).last)
            let attachments = try p.bobPhone.attachments(ofMessage: message.id)
            try #require(attachments.count == 2)
            let own = p.bobPhone.downloadDirectory.appendingPathComponent("map.bin")
            try FileManager.default.createDirectory(at: p.bobPhone.downloadDirectory, withIntermediateDirectories: true)
            try await p.bobPhone.downloadAttachment(attachments[0].id, to: own)
            let exportDirectory = server.directory.appendingPathComponent("exports")
            try FileManager.default.createDirectory(at: exportDirectory, withIntermediateDirectories: true)
            let exported = exportDirectory.appendingPathComponent("route.bin")
            try await p.bobPhone.downloadAttachment(attachments[1].id, to: exported)

            try p.bobPhone.markRead(conversationId: try #require(try p.bobPhone.conversationId(with: p.aliceId)))
            clock.advance(by: 61_000)
            #expect(try p.bobPhone.sweepExpiredMessages() == 1)
            #expect(!FileManager.default.fileExists(atPath: own.path))
            #expect(try Data(contentsOf: exported) == Data(repeating: 2, count: 5_000))
        }
    }

    @Test func voiceNotesCarryDurationAndWaveformBeforeDownload() async throws {
        try await TestServer.run { server in
            let p = try await Self.people(server)
            let wav = server.directory.appendingPathComponent("note.wav")
            // 1.5 s of 16-bit mono at 8 kHz whose loudness rises linearly.
            try WAVAnalysisTests.wav(sampleRate: 8_000, channels: 1, bits: 16, frames: 12_000) { frame, _ in
                Double(frame) / 12_000 * sin(Double(frame) * 0.3)
            }.write(to: wav)
            let note = try OutgoingAttachment.voiceNote(wav: wav)
            #expect(note.durationMilliseconds == 1_500 && note.waveform.count == 100 && note.contentType == "audio/wav")
            let id = try p.alice.sender.enqueue(body: "", to: p.bobId, files: [note])
            _ = try await p.alice.runJobs()
            _ = try await p.bobPhone.receiveOnce()
            let message = try #require(try Self.messages(p.bobPhone, with: p.aliceId).last)
            let info = try #require(try p.bobPhone.attachments(ofMessage: message.id).first)
            #expect(info.state == "remote" && info.voiceNote && info.durationMilliseconds == 1_500)
            #expect(info.waveform == note.waveform)
            #expect(info.waveform.first! < 0.05 && info.waveform.last! > 0.9)
            #expect(try p.alice.attachments(ofMessage: id).first?.voiceNote == true)
        }
    }

    /// ``people(_:clock:)`` whose conversation (Alice and Bob) has a one-minute disappearing timer, set by Alice and
    /// received by Bob's phone.
    static func peopleWithOneMinuteTimer(_ server: TestServer, clock: TestClock) async throws -> People {
        let p = try await people(server, clock: clock)
        try p.alice.sender.setExpireTimer(60, with: p.bobId)
        _ = try await p.alice.runJobs()
        _ = try await p.bobPhone.receiveOnce()
        return p
    }

    /// Whether any page of `client`'s database file, opened with its key, holds `text` (after a checkpoint, so the
    /// whole database is in the main file). Free pages are included: deleted content must be erased, not unlinked.
    static func databaseFileContains(_ text: String, _ client: ParleyClient) throws -> Bool {
        let database = client.database
        _ = try database.pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        let pageSize = try database.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096 }
        let key = try DatabaseKey.fromKeyFile(
            at: URL(fileURLWithPath: database.path).deletingLastPathComponent().appendingPathComponent("client.key"))
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: database.path)))
        let needle = Array(text.utf8)
        var plain = [UInt8](repeating: 0, count: pageSize)
        for page in 0..<file.count / pageSize {
            let sealed = Array(file[page * pageSize..<(page + 1) * pageSize])
            let status = key.bytes.withUnsafeBufferPointer { keyBytes in
                parley_vfs_open_database_page(keyBytes.baseAddress, UInt32(page + 1), Int32(pageSize), sealed, &plain)
            }
            try #require(status == 0, "page \(page + 1) does not open")
            if plain.firstRange(of: needle) != nil { return true }
        }
        return false
    }

    /// Retries `condition` for up to 5 s.
    static func eventually(_ condition: () async throws -> Bool) async throws {
        for _ in 0..<100 {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("condition not met within 5 s")
    }
}
