import Foundation
import ParleyAPI
import ParleyProtocol
import ParleyServer
import Testing

@_spi(Inspection) @testable import ParleyKit

/// Accounts that go by a username the server never reads: registered without a plain name, found by the username's
/// hash or a link, named to correspondents by their own messages, restored from a PIN backup kept under the account id
/// — and the server's database searched for the nickname afterwards. Then the move of an account registered with a
/// plain name, once the server retires plain names.
@Suite struct NamelessAccountTests {
    static func backup(_ client: ParleyClient) -> KeyBackup {
        KeyBackup(database: client.database, api: client.api, store: client.store, argon2: .minimum)
    }

    @Test func theNicknameIsNowhereInTheServersDatabase() async throws {
        try await TestServer.run(backup: KeyBackupTests.settings()) { server in
            let nickname = "Quillfeather"
            let dana = try server.client("dana")
            let (registered, username) = try await dana.register(nickname: nickname)
            #expect(username.value.hasPrefix(nickname + "."))
            #expect(try dana.accounts.account()?.username == username.value)
            let erin = try server.client("erin")
            let (erinCredentials, erinUsername) = try await erin.register(nickname: "Marblewing")

            // Erin finds Dana by her username (in any case) and by her link; the server answers from the hash alone.
            #expect(try await erin.findAccount(named: username.value.uppercased())?.accountId == registered.accountId)
            let link = try await dana.usernameLink()
            #expect(try await erin.findAccount(named: link.description)?.accountId == registered.accountId)
            // The server has no name for either: asked by id, it answers none.
            #expect(try await erin.api.account(registered.accountId, as: erin.credentials()).username == nil)

            // A conversation: each learns the other's username from the messages, and believes it once its hash leads to
            // the sender's account.
            _ = try erin.sender.enqueue(body: "hello", to: try await erin.resolve(username.value))
            #expect(try await erin.runJobs().completed == 1)
            #expect(try await dana.receiveOnce().count == 1)
            #expect(try await dana.names(of: [erinCredentials.accountId])[erinCredentials.accountId] == erinUsername.value)
            _ = try dana.sender.enqueue(body: "hi erin", to: erinCredentials.accountId)
            #expect(try await dana.runJobs().completed >= 1)
            #expect(try await erin.receiveOnce().count >= 1)
            #expect(try erin.conversations().first?.lastMessagePreview == "hi erin")
            #expect(try await erin.names(of: [registered.accountId])[registered.accountId] == username.value)

            // The PIN backup is kept under the account id; a new machine knows the username and the PIN.
            try await Self.backup(dana).create(pin: "73519")
            #expect(try await Self.backup(dana).status().kdf?.pinInput == .accountId)
            let laptop = try server.client("laptop")
            let restored = try await Self.backup(laptop).restore(username: username.value.lowercased(), pin: "73519")
            #expect(restored.accountId == registered.accountId)
            #expect(try laptop.username() == username.value)
            #expect(try await Self.backup(laptop).status().kdf?.pinInput == .accountId)
            // The name route knows nothing of the account (it has no name to be found by).
            await #expect(throws: ParleyError.backup(.noBackup)) {
                _ = try await Self.backup(try server.client("thief")).restore(username: nickname, pin: "73519")
            }

            guard !server.usesPostgres else { return }
            // Every byte the server keeps: the database, its write-ahead log and shared memory, freed pages included.
            var stored = Data()
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: server.serverDatabasePath + suffix) {
                stored += try Data(contentsOf: URL(fileURLWithPath: server.serverDatabasePath + suffix))
            }
            // The search reads what was stored: the account ids are there.
            #expect(stored.range(of: Data(registered.accountId.utf8)) != nil)
            for name in [nickname, username.value, "Marblewing", erinUsername.value] {
                for encoding in Self.encodings(of: name) {
                    #expect(stored.range(of: encoding) == nil, "\(name) is in the server's database as \(encoding.map { $0 })")
                }
            }
        }
    }

    @Test func anAccountWithAPlainNameMovesToAUsernameWhenTheServerRetiresNames() async throws {
        try await TestServer.run(backup: KeyBackupTests.settings()) { server in
            let bob = try server.client("bob")
            let bobId = try await bob.register(username: "bob-smith").accountId
            let carol = try server.client("carol")
            let carolId = try await carol.register(username: "carol").accountId
            let frank = try server.client("frank")
            let frankId = try await frank.register(username: "frank").accountId
            try await Self.backup(frank).create(pin: "24680")
            #expect(try await Self.backup(frank).status().kdf?.pinInput == .registeredName)
            _ = try carol.sender.enqueue(body: "before", to: try await carol.resolve("bob-smith"))
            #expect(try await carol.runJobs().completed == 1)
            #expect(try await bob.receiveOnce().count == 1)
            // Nothing happens while the server takes plain names.
            #expect(try await bob.movePlainNameToUsernameIfAsked() == .notAsked)

            try await server.restart(plainAccountNames: .retired)
            // No new account takes a plain name.
            let refused = await #expect(throws: ParleyError.self) { _ = try await server.client("gina").register(username: "gina") }
            #expect(refused?.server?.status == 400)

            // Bob's next start (its key upkeep) takes a username made from his name; the server forgets the name.
            _ = try await bob.maintainKeys()
            let username = try #require(try bob.username())
            #expect(username.hasPrefix("bob_smith."))
            #expect(try await bob.api.whoami(as: bob.credentials()).accountName == nil)
            #expect(try await carol.findAccount(named: "bob-smith") == nil)
            // Carol still writes to the account she knows; Bob's answer tells her his username, which she checks.
            _ = try carol.sender.enqueue(body: "after", to: try await carol.resolve("bob-smith"))
            #expect(try await carol.runJobs().completed == 1)
            #expect(try await bob.receiveOnce().count == 1)
            _ = try bob.sender.enqueue(body: "I go by my username now", to: carolId)
            #expect(try await bob.runJobs().completed >= 1)
            #expect(try await carol.receiveOnce().count >= 1)
            #expect(try carol.conversations().first?.lastMessagePreview == "I go by my username now")
            #expect(try await carol.names(of: [bobId])[bobId] == username)

            // Frank's backup was made under his name: the server keeps the name until the backup is made again.
            guard case .moved(let frankUsername, nameKeptForBackup: true) = try await frank.movePlainNameToUsernameIfAsked() else {
                Issue.record("frank did not move, or lost his name with a backup made under it")
                return
            }
            #expect(try await frank.api.whoami(as: frank.credentials()).accountName == "frank")
            // Asked for by the username meanwhile, the server says which key the backup needs before a guess is spent.
            let early = await #expect(throws: ParleyError.self) {
                _ = try await Self.backup(try server.client("too-early")).restore(username: frankUsername, pin: "24680")
            }
            #expect(early?.server?.status == 409)
            #expect(try await Self.backup(frank).status().failures == 0)
            try await Self.backup(frank).create(pin: "24680")
            #expect(try await frank.api.whoami(as: frank.credentials()).accountName == nil)
            await #expect(throws: ParleyError.backup(.noBackup)) {
                _ = try await Self.backup(try server.client("by-old-name")).restore(username: "frank", pin: "24680")
            }
            let laptop = try server.client("frank-laptop")
            #expect(try await Self.backup(laptop).restore(username: frankUsername, pin: "24680").accountId == frankId)
        }
    }

    @Test func plainNamesBecomeNicknamesSignalsRulesAccept() throws {
        for name in ["bob-smith", "a.b.c", "007bond", "Zed", String(repeating: "x", count: 32), "9-lives"] {
            let nickname = ParleyClient.nickname(fromPlainName: name)
            #expect(throws: Never.self) { try ParleyClient.checkNickname(nickname) }
        }
        #expect(ParleyClient.nickname(fromPlainName: "007bond") == "_007bond")
        #expect(ParleyClient.nickname(fromPlainName: "bob-smith") == "bob_smith")
    }

    /// `name` as a database could hold it: as typed, lower- and upper-cased, in UTF-16 both ways, in hex, in base64 and
    /// base64url (alone and as the tail of a longer value, at each of the three alignments).
    static func encodings(of name: String) -> [Data] {
        var encodings: [Data] = []
        for form in Set([name, name.lowercased(), name.uppercased()]) {
            let bytes = Data(form.utf8)
            encodings.append(bytes)
            encodings.append(form.data(using: .utf16LittleEndian)!)
            encodings.append(form.data(using: .utf16BigEndian)!)
            let hex = bytes.map { String(format: "%02x", $0) }.joined()
            encodings.append(Data(hex.utf8))
            encodings.append(Data(hex.uppercased().utf8))
            for padding in 0..<3 {
                // The characters that depend on the name alone: those after the first group the padding touches.
                let encoded = (Data(repeating: 0, count: padding) + bytes).base64EncodedString()
                let stable = String(encoded.dropFirst(padding == 0 ? 0 : 4).prefix(max(0, (bytes.count - 3) / 3 * 4)))
                guard stable.count >= 8 else { continue }
                encodings.append(Data(stable.utf8))
                encodings.append(Data(stable.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").utf8))
            }
        }
        return encodings
    }
}
