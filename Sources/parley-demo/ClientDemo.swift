import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import ParleyAPI
@_spi(Inspection) import ParleyKit
import ParleyServer

/// The end-to-end demo of `make demo`: a real parley-server on loopback (SQLite in a temporary directory) and
/// three real ParleyKit clients — Alice, and Bob on a phone and a laptop — talking through it.
struct ClientDemo {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-demo-\(UUID().uuidString.prefix(8))")

    func run() async throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await runConversation(http: http)
        } catch {
            try? await http.shutdown()
            throw error
        }
        try? await http.shutdown()
    }

    private func runConversation(http: HTTPClient) async throws {
        print("Parley end-to-end demo: parley-server + ParleyKit clients, all real, on this machine\n")
        let serverDirectory = root.appendingPathComponent("server")
        try FileManager.default.createDirectory(at: serverDirectory, withIntermediateDirectories: true)
        let store = try SQLiteStore(path: serverDirectory.appendingPathComponent("server.sqlite").path)
        let dependencies = ServerDependencies(
            store: store, attachments: try AttachmentStore(directory: serverDirectory.appendingPathComponent("attachments")),
            hasher: CredentialHasher())
        var logger = Logger(label: "demo-server")
        logger.logLevel = .critical  // the transcript is the output; stopping the server at the end is expected
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let app = ParleyServerApplication.make(dependencies, port: 0, logger: logger) { portContinuation.yield($0) }
        let server = Task { try await app.run() }
        defer { server.cancel() }
        var port = 0
        for await value in ports {
            port = value
            break
        }
        let baseURL = "http://127.0.0.1:\(port)"
        print("1. parley-server listens on \(baseURL) (SQLite in \(serverDirectory.path))")

        func client(_ name: String) throws -> ParleyClient {
            let folder = root.appendingPathComponent(name)
            let database = try ParleyDatabase(
                path: folder.appendingPathComponent("client.sqlite").path,
                key: try DatabaseKey.fromKeyFile(at: folder.appendingPathComponent("client.key")))
            return ParleyClient(
                database: database, api: ParleyServerClient(baseURL: baseURL, http: http),
                attachmentDirectory: folder.appendingPathComponent("attachments"))
        }
        let alice = try client("alice")
        let bobPhone = try client("bob-phone")
        let bobLaptop = try client("bob-laptop")
        let aliceId = try await alice.register(username: "alice", deviceName: "alice's laptop").accountId
        let bobId = try await bobPhone.register(username: "bob", deviceName: "bob's phone").accountId
        _ = try await bobPhone.linkNewDevice(bobLaptop, name: "bob's laptop")
        print("2. Alice and Bob register: each device gets an identity key, a signed prekey, 100 one-time prekeys,")
        print("   100 one-time ML-KEM-1024 prekeys and a last-resort one; Bob links his laptop as device 2")
        print("   (every client database is encrypted page by page: XChaCha20-Poly1305 under SQLite)\n")

        try await alice.send(MessageDraft(body: "Hi Bob! This is end-to-end encrypted."), to: .person(bobId))
        let pending = try await bobPhone.api.mailbox(as: try bobPhone.credentials()).messages
        print("3. Alice → Bob: \"Hi Bob! This is end-to-end encrypted.\"")
        print("   Alice had no session: she fetched Bob's bundles and ran PQXDH (X25519 ×4 + ML-KEM-1024) per device.")
        for envelope in pending {
            print(
                "   on the wire to Bob's phone: type \(envelope.type) (PreKeySignalMessage), \(Data(base64Encoded: envelope.content)!.count) bytes"
            )
        }
        _ = try await bobPhone.receiveOnce()
        _ = try await bobLaptop.receiveOnce()
        print("   Bob's phone shows: \(try lastText(bobPhone, with: aliceId))")
        print("   Bob's laptop shows: \(try lastText(bobLaptop, with: aliceId))\n")

        let phoneConversation = try bobPhone.conversationId(with: aliceId)!
        let hello = try bobPhone.history(conversationId: phoneConversation).messages.first!
        try await bobPhone.send(MessageDraft(body: "Hi Alice, got it on both devices.", replyTo: hello.id), to: .person(aliceId))
        let sealedRows = try await store.pendingEnvelopes(accountId: aliceId, deviceId: 1, notBefore: 0, limit: 10).filter { $0.type == 6 }
        _ = try await alice.receiveOnce()
        _ = try await bobLaptop.receiveOnce()
        let aliceConversation = try alice.conversationId(with: bobId)!
        let aliceView = try alice.history(conversationId: aliceConversation).messages
        print(
            "4. Bob's phone replies; Alice sees: \(aliceView.first?.body ?? "?")  (a reply to message #\(aliceView.first?.replyToId ?? 0))")
        print("   Bob's phone learned Alice's profile key from her message, so the reply went sealed (no credentials, her access key):")
        print(
            "   the server's mailbox row says type \(sealedRows.first?.type ?? 0), sender \(sealedRows.first.map { $0.sourceAccountId ?? "(none)" } ?? "?");"
                + " Alice's device believed it was Bob")
        print("   only from the sender certificate inside, checked against the trust root (sealed: \(aliceView.first?.sealed ?? false))")
        print("   her first message is now '\(aliceView.last?.status.rawValue ?? "?")' (Bob's phone sent a delivery receipt)")
        print("   Bob's laptop got a sync copy: \(try lastText(bobLaptop, with: aliceId)) (outgoing)\n")

        for text in ["one", "two", "three"] {
            try await alice.send(MessageDraft(body: "message \(text)"), to: .person(bobId), attempt: .queueOnly)
        }
        try await alice.sendQueued()
        let batch = try await bobPhone.api.mailbox(as: try bobPhone.credentials()).messages
        print("5. Out-of-order delivery: Alice sends three messages; Bob's phone processes them last first")
        for envelope in batch.reversed() {
            let outcome = try await bobPhone.process(envelope)
            try await bobPhone.api.acknowledge(envelope.guid, as: try bobPhone.credentials())
            if case .stored(let id) = outcome, let message = try bobPhone.message(id: id) {
                let kind = envelope.type == 6 ? "sealed sender around a Double Ratchet message" : "Double Ratchet"
                print(
                    "   decrypted \"\(message.body ?? "")\" (\(Data(base64Encoded: envelope.content)!.count) bytes, type \(envelope.type): \(kind))"
                )
            }
        }
        let replay = try await bobPhone.process(batch[0])
        print("   the same ciphertext again is recognised: \(replay)")

        // A broken session: Bob's phone loses its session with Alice (as after restoring an old backup).
        try bobPhone.forgetSessions(with: aliceId)
        try await alice.send(MessageDraft(body: "Did this survive?"), to: .person(bobId))
        let broken = try await bobPhone.receiveOnce().filter { if case .undecryptable = $0 { true } else { false } }.count
        try await bobPhone.sendQueued()  // the retry receipt
        _ = try await alice.receive()  // the resend goes, on a fresh session
        _ = try await bobPhone.receiveOnce()
        let survivors = try bobPhone.history(conversationId: phoneConversation).messages.filter { $0.body == "Did this survive?" }.count
        print("   A broken session loses no message: Bob's phone lost its session with Alice and could not decrypt \(broken) message(s);")
        print("   it sent Alice a retry receipt, she archived the session, fetched a fresh bundle and resent from her send log:")
        print("   Bob's phone shows \(try lastText(bobPhone, with: aliceId)) \(survivors == 1 ? "once" : "\(survivors) times")\n")

        let photo = root.appendingPathComponent("holiday.jpg")
        let photoBytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        try photoBytes.write(to: photo)
        try await alice.send(MessageDraft(body: "A photo", attachments: [try OutgoingAttachment(file: photo)]), to: .person(bobId))
        _ = try await bobPhone.receiveOnce()
        let photoMessage = try bobPhone.history(conversationId: phoneConversation).messages.first!
        let attachment = try bobPhone.attachments(ofMessage: photoMessage.id).first!
        let saved = root.appendingPathComponent("received.jpg")
        try await bobPhone.downloadAttachment(attachment.id, to: saved)
        print("6. Attachment: Alice encrypts holiday.jpg (\(photoBytes.count) bytes) with AES-256-CBC + HMAC-SHA256, padded to the")
        print(
            "   \(AttachmentPadding.paddedSize(photoBytes.count))-byte bucket, uploads the blob; the key and digest travel inside the message."
        )
        print("   Bob downloads, checks digest and MAC, decrypts: identical = \(try Data(contentsOf: saved) == photoBytes)\n")

        try await bobPhone.react("❤️", to: photoMessage.id)
        _ = try await alice.receiveOnce()
        let alicePhoto = try alice.history(conversationId: aliceConversation, limit: 1).messages.first!
        print("7. Reactions, edits, disappearing messages — all inside the same encrypted content format:")
        print("   Bob reacts to the photo; Alice sees: \"\(alicePhoto.body ?? "")\" \(alicePhoto.reactions.map(\.emoji).joined())")
        try await alice.edit(alicePhoto.id, body: "A photo from the beach")
        _ = try await bobPhone.receiveOnce()
        let edited = try bobPhone.history(conversationId: phoneConversation, limit: 1).messages.first!
        print(
            "   Alice edits it; Bob's phone shows: \"\(edited.body ?? "")\" (edited; the earlier text kept as history:"
                + " \(try bobPhone.editHistory(ofMessage: edited.id)))")
        try await alice.setExpireTimer(2, with: bobId, attempt: .queueOnly)
        try await alice.send(MessageDraft(body: "This one disappears 2 s after Bob reads it."), to: .person(bobId))
        _ = try await bobPhone.receiveOnce()
        print(
            "   Alice sets a 2 s timer; Bob's inbox: \(try bobPhone.conversations().first.map { "timer \(TimerDescription.short($0.expireTimer))" } ?? "?")"
                + ", last message \(try lastText(bobPhone, with: aliceId))")
        try await bobPhone.markRead(conversationId: phoneConversation, attempt: .queueOnly)
        try await Task.sleep(for: .milliseconds(2_100))
        let swept = try bobPhone.sweepExpiredMessages()
        print(
            "   Bob reads it; 2 s later the sweeper deletes \(swept) message from his database (erased, not hidden);"
                + " last message now \(try lastText(bobPhone, with: aliceId))\n")

        let carol = try client("carol")
        let carolId = try await carol.register(username: "carol", deviceName: "carol's phone").accountId
        let (groupId, _) = try await alice.createGroup(title: "Weekend trip", members: [bobId, carolId])
        for device in [bobPhone, bobLaptop, carol] { _ = try await device.receiveOnce() }
        print("8. A group chat: Alice creates “Weekend trip” with Bob and Carol (the group change goes 1:1 to every member device)")
        try await alice.send(MessageDraft(body: "Cabin or tent?"), to: .group(groupId))
        let groupMailbox = try await bobPhone.api.mailbox(as: try bobPhone.credentials()).messages
        print(
            "   Alice's first group message: her sender key goes 1:1 to each of the 3 member devices first, then one Sender Key"
                + " ciphertext (type \(groupMailbox.last?.type ?? 0), \(Data(base64Encoded: groupMailbox.last?.content ?? "")?.count ?? 0) bytes) for all"
        )
        for device in [bobPhone, bobLaptop, carol] { _ = try await device.receiveOnce() }
        try await carol.send(MessageDraft(body: "Cabin!"), to: .group(groupId))
        for device in [alice, bobPhone, bobLaptop] { _ = try await device.receiveOnce() }
        let groupConversation = try bobPhone.groups().first { $0.id == groupId }!.conversationId
        print(
            "   Bob's phone shows: "
                + (try bobPhone.history(conversationId: groupConversation).messages.reversed()
                    .filter { $0.kind == .message }.map { "\"\($0.body ?? "")\"" }.joined(separator: ", ")))
        try await alice.updateGroup(groupId, removing: [carolId], attempt: .queueOnly)
        try await alice.send(MessageDraft(body: "Carol is out; cabin it is."), to: .group(groupId))
        for device in [bobPhone, carol] { _ = try await device.receiveOnce() }
        print(
            "   Alice removes Carol and writes again with a new sender key: Bob reads \(try lastGroupText(bobPhone, groupId));"
                + " Carol, out of the group (left: \(try carol.groups().first?.left ?? false)), last saw \(try lastGroupText(carol, groupId))\n"
        )

        let aliceNumber = try alice.safetyNumber(with: bobId)
        let bobNumber = try bobPhone.safetyNumber(with: aliceId)
        print("9. Safety number (compare in person):")
        for line in aliceNumber.split(separator: "\n") { print("   \(line)") }
        print("   Alice and Bob compute the same number: \(aliceNumber == bobNumber)\n")

        print("10. What the server stored — and what it did not:")
        let texts = ["Hi Bob", "got it on both devices", "message two", "Did this survive?", "A photo", "Cabin or tent?", "Carol is out"]
        let serverFiles = try FileManager.default.subpathsOfDirectory(atPath: serverDirectory.path)
            .map { serverDirectory.appendingPathComponent($0).path }
            .filter { (try? FileManager.default.attributesOfItem(atPath: $0)[.type] as? FileAttributeType) == .typeRegular }
        var leaks = 0
        for file in serverFiles {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
            for text in texts where bytes.range(of: Data(text.utf8)) != nil { leaks += 1 }
            if bytes.range(of: photoBytes.prefix(64)) != nil { leaks += 1 }
        }
        print(
            "   searched \(serverFiles.count) server files (database, WAL, attachment blobs) for every message text and the photo:"
                + " \(leaks == 0 ? "no plaintext found" : "\(leaks) PLAINTEXT HITS")")
        let clientFile = root.appendingPathComponent("bob-phone/client.sqlite").path
        let clientBytes = (try? Data(contentsOf: URL(fileURLWithPath: clientFile))) ?? Data()
        let walBytes = (try? Data(contentsOf: URL(fileURLWithPath: clientFile + "-wal"))) ?? Data()
        let clientLeaks = texts.filter { clientBytes.range(of: Data($0.utf8)) != nil || walBytes.range(of: Data($0.utf8)) != nil }.count
        print(
            "   Bob's own database files hold the conversation, encrypted: \(clientLeaks == 0 ? "no plaintext on disk" : "\(clientLeaks) PLAINTEXT HITS")"
        )
        if leaks > 0 || clientLeaks > 0 { throw DemoError.plaintextFound }
        print("\nDone. (`parley-demo --protocol` runs the protocol-only walkthrough with sender keys.)")
        server.cancel()
        _ = await server.result
    }

    private func lastGroupText(_ client: ParleyClient, _ groupId: Data) throws -> String {
        guard let group = try client.groups().first(where: { $0.id == groupId }),
            let message = try client.history(conversationId: group.conversationId).messages.first(where: { $0.kind == .message })
        else { return "(nothing)" }
        return "\"\(message.body ?? "")\""
    }

    private func lastText(_ client: ParleyClient, with accountId: String) throws -> String {
        guard let conversation = try client.conversationId(with: accountId),
            let message = try client.history(conversationId: conversation, limit: 1).messages.first
        else { return "(nothing)" }
        if message.kind == .timerChange { return "(\(TimerDescription.notice(message.expireTimer)))" }
        return "\"\(message.body ?? "")\""
    }
}

enum DemoError: Error {
    case plaintextFound
}
