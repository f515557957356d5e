import Foundation
import ParleyProtocol
import Testing

@_spi(Inspection) @testable import ParleyKit

/// Usernames from the client's side (issue 45) against a real server: a username taken with a random number or a
/// chosen one, found by another account by its full name or its link, a message sent to each, the link reset, the
/// username given up — and then the server's database searched for the nickname in every encoding: it is nowhere.
@Suite struct UsernameClientTests {
    /// The bodies of the messages `client` stored from what it received.
    static func receivedBodies(_ client: ParleyClient) async throws -> [String] {
        let report = try await client.receive()
        return try report.envelopes.compactMap { envelope in
            guard case .stored(let id) = envelope.outcome else { return nil }
            return try client.message(id: id)?.body
        }
    }

    @Test func othersFindAUsernameByNameOrLinkAndTheServerNeverSeesIt() async throws {
        try await TestServer.run { server in
            let alice = try server.client("alice")
            let bob = try server.client("bob")
            let aliceId = try await alice.accounts.register(username: "reg-a1").accountId
            _ = try await bob.accounts.register(username: "reg-b1")

            let nickname = "Wanderer_77"
            let username = try await alice.setUsername(nickname: nickname)
            #expect(username.value.hasPrefix(nickname + "."))
            #expect(try alice.username() == username.value)

            // Bob sends to the full username, in any case: found by its hash.
            let sent = try await bob.send(MessageDraft(body: "found you"), to: .person(username.value.lowercased()))
            #expect(sent.status == .sent)
            #expect(try await Self.receivedBodies(alice) == ["found you"])
            // And by the link, which names the same account.
            let link = try await alice.usernameLink()
            #expect(link.description.hasPrefix(UsernameLinkAddress.prefix))
            #expect(try await alice.usernameLink() == link)
            #expect(try await bob.username(of: link) == username)
            let found = try #require(try await bob.findAccount(named: link.description))
            #expect(found.accountId == aliceId && found.username == username.value)

            // A chosen number someone holds is refused; a free one replaces the first username, which stops finding her.
            let carol = try server.client("carol")
            _ = try await carol.accounts.register(username: "reg-c1")
            let parts = username.value.split(separator: ".")
            await #expect(throws: ParleyError.self) {
                try await carol.setUsername(nickname: String(parts[0]), discriminator: String(parts[1]))
            }
            let chosen = try await alice.setUsername(nickname: nickname, discriminator: "1234")
            #expect(chosen.value == nickname + ".1234")
            #expect(try await bob.findAccount(named: username.value) == nil)
            #expect(try await bob.findAccount(named: chosen.value)?.accountId == aliceId)
            // Setting the username made a new link: the old one is gone; a reset makes another.
            await #expect(throws: ParleyError.self) { _ = try await bob.username(of: link) }
            let second = try await alice.usernameLink()
            let third = try await alice.usernameLink(reset: true)
            #expect(second != third)
            #expect(try await bob.username(of: third) == chosen)
            await #expect(throws: ParleyError.self) { _ = try await bob.username(of: second) }

            // A username no one has is a 404, as an unknown name always was.
            await #expect {
                _ = try await bob.send(MessageDraft(body: "anyone?"), to: .person("nobody_here.42"))
            } throws: { error in
                guard case ParleyError.server(let failure) = error else { return false }
                return failure.status == 404
            }

            // The server's files hold the nickname in no encoding.
            if !server.usesPostgres {
                var bytes = Data()
                for suffix in ["", "-wal", "-shm"] {
                    bytes += (try? Data(contentsOf: URL(fileURLWithPath: server.serverDatabasePath + suffix))) ?? Data()
                }
                // The search sees what the server does keep: the account names given at registration (until they move
                // to hashes too — the rest of issue 45).
                #expect(bytes.range(of: Data("reg-a1".utf8)) != nil)
                for spelling in [nickname, nickname.lowercased(), chosen.value, chosen.value.lowercased()] {
                    let utf8 = Data(spelling.utf8)
                    let forms: [Data] = [
                        utf8, Data(spelling.utf16.flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] }),
                        Data(utf8.base64EncodedString().dropLast(2).utf8), Data(utf8.map { String(format: "%02x", $0) }.joined().utf8),
                    ]
                    for form in forms { #expect(bytes.range(of: form) == nil, "\(spelling) found in the server's database") }
                }
            }

            // Given up: no one finds her by it, and this device forgets it.
            try await alice.deleteUsername()
            #expect(try alice.username() == nil)
            #expect(try await bob.findAccount(named: chosen.value) == nil)
        }
    }
}
