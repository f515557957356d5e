import Foundation
import GRDB
import ParleyAPI
import Testing

@_spi(Inspection) @testable import ParleyKit

/// The client's send and receive pipelines against a real in-process server: two accounts, three devices.
@Suite(.serialized) struct ClientPipelineTests {
    static func texts(_ client: ParleyClient, with accountId: String) throws -> [String] {
        guard let conversation = try client.conversationId(with: accountId) else { return [] }
        return try client.history(conversationId: conversation).messages.reversed().compactMap(\.body)
    }

    @Test func messagesFlowBothWaysToEveryDeviceWithReceiptsAndRepairs() async throws {
        try await TestServer.run { server in
            let alice = try server.client("alice")
            let bobPhone = try server.client("bob-phone")
            let bobLaptop = try server.client("bob-laptop")
            let aliceId = try await alice.accounts.register(username: "alice").accountId
            let bobId = try await bobPhone.accounts.register(username: "bob").accountId
            try await bobPhone.accounts.linkNewDevice(database: bobLaptop.database, name: "laptop")

            // Alice → Bob: both of Bob's devices get it (PQXDH sessions from the server's bundles).
            let first = try alice.sender.enqueue(body: "hello bob", to: bobId)
            #expect(try await alice.runJobs() == ParleyClient.JobReport(completed: 1))
            let aliceConversationId = try #require(try alice.conversationId(with: bobId))
            #expect(try alice.history(conversationId: aliceConversationId).messages.first?.status == .sent)
            #expect(try await bobPhone.receiveOnce().count == 1)
            #expect(try await bobLaptop.receiveOnce().count == 1)
            #expect(try Self.texts(bobPhone, with: aliceId) == ["hello bob"] && Self.texts(bobLaptop, with: aliceId) == ["hello bob"])
            // Alice started the conversation: Bob's inbox names her after asking the server who the account is.
            #expect(try bobPhone.conversations().first?.username == "alice")

            // Bob's phone replies; the laptop gets the sent transcript, Alice the reply and then the delivery receipt.
            let bobConversation = try #require(try bobPhone.conversationId(with: aliceId))
            let received = try #require(try bobPhone.history(conversationId: bobConversation).messages.first)
            try bobPhone.sender.enqueue(body: "hi alice", to: aliceId, replyTo: received.id)
            _ = try await bobPhone.runJobs()  // the reply and the delivery receipt for "hello bob"
            #expect(try await alice.receiveOnce().count == 2)
            #expect(try Self.texts(alice, with: bobId) == ["hello bob", "hi alice"])
            let aliceConversation = try #require(try alice.conversationId(with: bobId))
            let sent = try alice.history(conversationId: aliceConversation).messages.first { $0.id == first }
            #expect(sent?.status == .delivered)
            #expect(try alice.history(conversationId: aliceConversation).messages.first?.replyToId == first)
            _ = try await bobLaptop.receiveOnce()
            let laptopConversation = try #require(try bobLaptop.conversationId(with: aliceId))
            let laptopView = try bobLaptop.history(conversationId: laptopConversation).messages
            #expect(laptopView.map(\.body) == ["hi alice", "hello bob"] && laptopView.first?.outgoing == true)

            // Alice adds a device mid-conversation: Bob's next send gets a 409, repairs, and reaches it.
            let aliceTablet = try server.client("alice-tablet")
            try await alice.accounts.linkNewDevice(database: aliceTablet.database, name: "tablet")
            try bobPhone.sender.enqueue(body: "after the new device", to: aliceId)
            _ = try await bobPhone.runJobs()
            _ = try await aliceTablet.receiveOnce()
            #expect(try Self.texts(aliceTablet, with: bobId) == ["after the new device"])

            // Read receipts move Alice's message to read.
            try bobPhone.markRead(conversationId: bobConversation)
            _ = try await bobPhone.runJobs()
            _ = try await alice.receiveOnce()
            #expect(try alice.history(conversationId: aliceConversation).messages.first { $0.id == first }?.status == .read)
            #expect(try alice.conversations().first?.unreadCount == 2)
        }
    }

    @Test func aReplacedDeviceIsStaleAndARemovedOneIsExtra() async throws {
        try await TestServer.run { server in
            let alice = try server.client("alice")
            let bobPhone = try server.client("bob-phone")
            let bobLaptop = try server.client("bob-laptop")
            let aliceId = try await alice.accounts.register(username: "alice").accountId
            let bobId = try await bobPhone.accounts.register(username: "bob").accountId
            try await bobPhone.accounts.linkNewDevice(database: bobLaptop.database, name: "laptop")
            try alice.sender.enqueue(body: "one", to: bobId)
            #expect(try await alice.runJobs().completed == 1)
            #expect(try await bobLaptop.receiveOnce().count == 1)

            // Bob replaces his laptop: device 2 is removed and the new laptop takes id 2 with a new registration id.
            // Alice's session for device 2 is stale: the server answers 410, she rebuilds it from the new bundle.
            try await bobPhone.removeDevice(2)
            let newLaptop = try server.client("bob-new-laptop")
            #expect(try await bobPhone.accounts.linkNewDevice(database: newLaptop.database, name: "new laptop").deviceId == 2)
            try alice.sender.enqueue(body: "to the new laptop", to: bobId)
            #expect(try await alice.runJobs().completed == 1)
            #expect(try await newLaptop.receiveOnce().count == 1)
            #expect(try Self.texts(newLaptop, with: aliceId) == ["to the new laptop"])

            // The new laptop goes too: Alice's next send names an extra device (409) and she drops its session.
            try await bobPhone.removeDevice(2)
            try alice.sender.enqueue(body: "phone only", to: bobId)
            #expect(try await alice.runJobs().completed == 1)
            let devices = try alice.database.read { db in
                try Int64.fetchAll(db, sql: "SELECT device_id FROM sessions WHERE address = ? ORDER BY device_id", arguments: [bobId])
            }
            #expect(devices == [1])
            _ = try await bobPhone.receiveOnce()
            #expect(try Self.texts(bobPhone, with: aliceId) == ["one", "to the new laptop", "phone only"])
        }
    }

    @Test func aDuplicateDeliveryIsStoredOnceAndAKilledSenderStillSends() async throws {
        try await TestServer.run { server in
            let alice = try server.client("alice")
            let bob = try server.client("bob")
            _ = try await alice.accounts.register(username: "alice")
            let bobId = try await bob.accounts.register(username: "bob").accountId
            try alice.sender.enqueue(body: "once", to: bobId)
            // "Killed" between enqueue and send: a new client over the same database finds the job and sends.
            let restarted = ParleyClient(
                database: alice.database, api: alice.api, attachmentDirectory: FileManager.default.temporaryDirectory)
            #expect(try await restarted.runJobs().completed == 1)

            let credentials = try bob.credentials()
            let envelope = try #require(try await bob.api.mailbox(as: credentials).messages.first)
            guard case .stored = try await bob.receiver.process(envelope) else {
                Issue.record("not stored")
                return
            }
            #expect(try await bob.receiver.process(envelope) == .duplicate)  // the server delivered it twice
            try await bob.api.acknowledge(envelope.guid, as: credentials)
            #expect(try Self.texts(bob, with: try alice.credentials().accountId) == ["once"])

            // Garbage is recorded as undecryptable, not dropped.
            let forged = Envelope(
                guid: UUID().uuidString, sourceAccountId: try alice.credentials().accountId, sourceDeviceId: 1, type: 2,
                content: Data([1, 2, 3]).base64EncodedString(), timestamp: 99, serverTimestamp: 99)
            guard case .undecryptable = try await bob.receiver.process(forged) else {
                Issue.record("forgery accepted")
                return
            }
            #expect(try bob.conversations().first?.lastMessagePreview == "(could not decrypt)")
        }
    }

    @Test func aChangedIdentityBlocksSendingUntilAccepted() async throws {
        try await TestServer.run { server in
            let alice = try server.client("alice")
            let bob = try server.client("bob")
            _ = try await alice.accounts.register(username: "alice")
            let bobId = try await bob.accounts.register(username: "bob").accountId
            try alice.sender.enqueue(body: "first", to: bobId)
            _ = try await alice.runJobs()
            try alice.database.write { db in try db.execute(sql: "UPDATE trusted_identities SET accepted = 0") }
            let blocked = try alice.sender.enqueue(body: "blocked", to: bobId)
            #expect(try await alice.runJobs().failed == 1)
            let conversation = try #require(try alice.conversationId(with: bobId))
            let failed = try alice.history(conversationId: conversation).messages.first { $0.id == blocked }
            #expect(failed?.status == .failed && failed?.failureReason?.contains("safety number") == true)
            try alice.acceptIdentity(of: bobId)
            try alice.sender.enqueue(body: "after accepting", to: bobId)
            #expect(try await alice.runJobs().completed == 1)
            _ = try await bob.receiveOnce()
            #expect(try Self.texts(bob, with: try alice.credentials().accountId) == ["first", "after accepting"])
            #expect(try alice.safetyNumber(with: bobId) == (try bob.safetyNumber(with: try alice.credentials().accountId)))
        }
    }

    @Test func attachmentsAndLongTextRoundTripEncrypted() async throws {
        try await TestServer.run { server in
            let alice = try server.client("alice")
            let bob = try server.client("bob")
            _ = try await alice.accounts.register(username: "alice")
            let bobId = try await bob.accounts.register(username: "bob").accountId
            let file = server.directory.appendingPathComponent("photo.bin")
            let photo = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
            try photo.write(to: file)
            let long = String(repeating: "long text ", count: 400)
            try alice.sender.enqueue(body: long, to: bobId, attachments: [file])
            #expect(try await alice.runJobs().completed == 1)
            _ = try await bob.receiveOnce()
            let bobConversation = try #require(try bob.conversationId(with: try alice.credentials().accountId))
            let message = try #require(try bob.history(conversationId: bobConversation).messages.first)
            #expect(message.body?.utf8.count == MessageSender.inlineTextLimit && message.attachmentCount == 2)
            let attachments = try bob.attachments(ofMessage: message.id)
            let photoOut = server.directory.appendingPathComponent("photo.out")
            try await bob.downloadAttachment(attachments[0].id, to: photoOut)
            #expect(try Data(contentsOf: photoOut) == photo && attachments[0].fileName == "photo.bin")
            // A download never replaces a directory (a sender-chosen name like ".." must not delete anything).
            let folder = server.directory.appendingPathComponent("keep-me")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("precious".utf8).write(to: folder.appendingPathComponent("inside.txt"))
            await #expect(throws: ParleyError.self) { try await bob.downloadAttachment(attachments[0].id, to: folder) }
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("inside.txt").path))
            try await bob.downloadAttachment(attachments[0].id, to: photoOut)  // an existing file is replaced
            #expect(try Data(contentsOf: photoOut) == photo)
            let textOut = server.directory.appendingPathComponent("text.out")
            try await bob.downloadAttachment(attachments[1].id, to: textOut)
            #expect(
                String(decoding: try Data(contentsOf: textOut), as: UTF8.self) == long
                    && attachments[1].contentType == "text/x-signal-plain")
            // The server's database never saw the text.
            let serverBytes = try Data(contentsOf: URL(fileURLWithPath: server.serverDatabasePath))
            #expect(serverBytes.range(of: Data("long text".utf8)) == nil)
        }
    }
}
