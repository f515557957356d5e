import Foundation
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyProtocol
import ParleyServer
import Testing

/// Usernames the server never reads (issue 45) through the real routes: reserve, confirm with a proof, look up by
/// hash, username links, deletion; a hash taken once, proofs that do not transfer, malformed requests, and the
/// lookup budget a scraper gets from one address. On SQLite, and on PostgreSQL when the suite runs there.
@Suite struct UsernameHashTests {
    static func b64(_ data: Data) -> String { Base64URL.encode(data) }

    /// Reserves `username` for `member` (as its only candidate) and confirms it with its proof and a fresh link;
    /// returns the confirmation's status, the link's entropy and the confirmation's body.
    static func take(_ username: Username, _ member: Member, on client: any TestClientProtocol) async throws
        -> (HTTPResponse.Status, Data, UsernameHashResponse?)
    {
        let (reserved, _) = try await client.call(
            .put, UsernameRoutes.reserve, headers: member.headers, json: ReserveUsernameHashRequest(usernameHashes: [b64(username.hash)]))
        guard reserved == .ok else { return (reserved, Data(), nil) }
        let (entropy, encrypted) = try username.createLink()
        let (status, body) = try await client.call(
            .put, UsernameRoutes.confirm, headers: member.headers,
            json: ConfirmUsernameHashRequest(
                usernameHash: b64(username.hash), zkProof: b64(username.generateProof()), encryptedUsername: b64(encrypted)))
        return (status, entropy, status == .ok ? try JSONDecoder().decode(UsernameHashResponse.self, from: body) : nil)
    }

    @Test func aUsernameIsTakenByItsHashFoundByItAndItsLinkReadsBack() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            // Twenty candidates, as a client offers them; the server reserves the first free one.
            let candidates = try Username.candidates(from: "alice")
            let (status, body) = try await client.call(
                .put, UsernameRoutes.reserve, headers: alice.headers,
                json: ReserveUsernameHashRequest(usernameHashes: candidates.map { Self.b64($0.hash) }))
            #expect(status == .ok)
            let reserved = try JSONDecoder().decode(ReserveUsernameHashResponse.self, from: body).usernameHash
            #expect(reserved == Self.b64(candidates[0].hash))
            // Not found before it is confirmed.
            #expect(try await client.call(.get, UsernameRoutes.lookup(usernameHash: reserved)).0 == .notFound)

            let username = try Username("Alice.42")
            let (confirmed, entropy, response) = try await Self.take(username, alice, on: client)
            #expect(confirmed == .ok)
            let handle = try #require(response?.usernameLinkHandle)
            // Bob finds Alice by the hash of what she told him (any case), without credentials.
            let (found, foundBody) = try await client.call(
                .get, UsernameRoutes.lookup(usernameHash: Self.b64(try Username("alice.42").hash)))
            #expect(found == .ok)
            #expect(try JSONDecoder().decode(AccountIdentifierResponse.self, from: foundBody).uuid == alice.accountId)
            // The confirmation replaced the earlier reservation: the candidate is free again.
            let (again, _) = try await client.call(
                .put, UsernameRoutes.reserve, headers: bob.headers, json: ReserveUsernameHashRequest(usernameHashes: [reserved]))
            #expect(again == .ok)
            // The link reads back to the username under its entropy.
            let (linkStatus, linkBody) = try await client.call(.get, UsernameRoutes.link(handle: handle))
            #expect(linkStatus == .ok)
            let value = try JSONDecoder().decode(EncryptedUsername.self, from: linkBody).usernameLinkEncryptedValue
            #expect(
                try Username(fromLink: Data(try #require(Base64URL.decode(value, maximumLength: 256))), withRandomness: entropy) == username
            )
            // Alice's own view.
            let (own, ownBody) = try await client.call(.get, UsernameRoutes.hash, headers: alice.headers)
            #expect(own == .ok)
            #expect(
                try JSONDecoder().decode(UsernameHashResponse.self, from: ownBody)
                    == UsernameHashResponse(usernameHash: Self.b64(username.hash), usernameLinkHandle: handle))
            #expect(try await client.call(.get, UsernameRoutes.hash, headers: bob.headers).0 == .notFound)

            // A new link (new handle): the old handle is gone. Keeping the handle keeps it.
            let (_, newEncrypted) = try username.createLink(previousEntropy: entropy)
            let (reset, resetBody) = try await client.call(
                .put, UsernameRoutes.link, headers: alice.headers,
                json: EncryptedUsername(usernameLinkEncryptedValue: Self.b64(newEncrypted)))
            #expect(reset == .ok)
            let newHandle = try JSONDecoder().decode(UsernameLinkHandle.self, from: resetBody).usernameLinkHandle
            #expect(newHandle != handle)
            #expect(try await client.call(.get, UsernameRoutes.link(handle: handle)).0 == .notFound)
            let (kept, keptBody) = try await client.call(
                .put, UsernameRoutes.link, headers: alice.headers,
                json: EncryptedUsername(usernameLinkEncryptedValue: Self.b64(newEncrypted), keepLinkHandle: true))
            #expect(kept == .ok)
            #expect(try JSONDecoder().decode(UsernameLinkHandle.self, from: keptBody).usernameLinkHandle == newHandle)

            // Deleting the username deletes the link; the hash is free for anyone.
            #expect(try await client.call(.delete, UsernameRoutes.hash, headers: alice.headers).0 == .noContent)
            #expect(try await client.call(.get, UsernameRoutes.lookup(usernameHash: Self.b64(username.hash))).0 == .notFound)
            #expect(try await client.call(.get, UsernameRoutes.link(handle: newHandle)).0 == .notFound)
            #expect(try await Self.take(username, bob, on: client).0 == .ok)
        }
    }

    @Test func aHashIsTakenOnceAndProofsDoNotTransfer() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let aliceName = try Username("alice.42")
            #expect(try await Self.take(aliceName, alice, on: client).0 == .ok)
            // Bob cannot reserve it (409, the one candidate taken), in any case.
            let (taken, takenBody) = try await client.call(
                .put, UsernameRoutes.reserve, headers: bob.headers,
                json: ReserveUsernameHashRequest(usernameHashes: [Self.b64(try Username("ALICE.42").hash)]))
            #expect(taken == .conflict && String(decoding: takenBody, as: UTF8.self).contains("username_not_available"))
            // Nor confirm it without a reservation, even with a valid proof of it.
            let (stolen, _) = try await client.call(
                .put, UsernameRoutes.confirm, headers: bob.headers,
                json: ConfirmUsernameHashRequest(usernameHash: Self.b64(aliceName.hash), zkProof: Self.b64(aliceName.generateProof())))
            #expect(stolen == .conflict)
            // A proof made for another username does not prove his reserved hash (422), and the reservation stays his.
            let bobName = try Username("bob.77")
            let (reserved, _) = try await client.call(
                .put, UsernameRoutes.reserve, headers: bob.headers,
                json: ReserveUsernameHashRequest(usernameHashes: [Self.b64(bobName.hash)]))
            #expect(reserved == .ok)
            let (wrongProof, wrongBody) = try await client.call(
                .put, UsernameRoutes.confirm, headers: bob.headers,
                json: ConfirmUsernameHashRequest(usernameHash: Self.b64(bobName.hash), zkProof: Self.b64(aliceName.generateProof())))
            #expect(wrongProof == .unprocessableContent, "\(String(decoding: wrongBody, as: UTF8.self))")
            #expect(try await client.call(.get, UsernameRoutes.lookup(usernameHash: Self.b64(bobName.hash))).0 == .notFound)
            let (right, _) = try await client.call(
                .put, UsernameRoutes.confirm, headers: bob.headers,
                json: ConfirmUsernameHashRequest(usernameHash: Self.b64(bobName.hash), zkProof: Self.b64(bobName.generateProof())))
            #expect(right == .ok)
            // Alice changing her username frees the old one.
            #expect(try await Self.take(try Username("alice.43"), alice, on: client).0 == .ok)
            #expect(try await client.call(.get, UsernameRoutes.lookup(usernameHash: Self.b64(aliceName.hash))).0 == .notFound)
            // Changed again without a new link, her link (which holds alice.43, free for anyone now) goes with it.
            let (_, linkedBody) = try await client.call(.get, UsernameRoutes.hash, headers: alice.headers)
            let linked = try #require(try JSONDecoder().decode(UsernameHashResponse.self, from: linkedBody).usernameLinkHandle)
            let newer = try Username("alice.44")
            #expect(
                try await client.call(
                    .put, UsernameRoutes.reserve, headers: alice.headers,
                    json: ReserveUsernameHashRequest(usernameHashes: [Self.b64(newer.hash)])
                ).0 == .ok)
            let (plain, plainBody) = try await client.call(
                .put, UsernameRoutes.confirm, headers: alice.headers,
                json: ConfirmUsernameHashRequest(usernameHash: Self.b64(newer.hash), zkProof: Self.b64(newer.generateProof())))
            #expect(plain == .ok)
            #expect(try JSONDecoder().decode(UsernameHashResponse.self, from: plainBody).usernameLinkHandle == nil)
            #expect(try await client.call(.get, UsernameRoutes.link(handle: linked)).0 == .notFound)
        }
    }

    @Test func aReservationLapsesAfterFiveMinutes() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let hash = Array(try Username("carol.55").hash)
            let now: UInt64 = 1_000_000
            #expect(
                try await harness.store.reserveUsernameHash(accountId: alice.accountId, candidates: [hash], until: now + 300_000, now: now)
                    == hash)
            #expect(
                try await harness.store.reserveUsernameHash(
                    accountId: bob.accountId, candidates: [hash], until: now + 400_000, now: now + 299_999) == nil)
            // Past the lapse Bob takes it over, and Alice's confirmation is refused.
            #expect(
                try await harness.store.reserveUsernameHash(
                    accountId: bob.accountId, candidates: [hash], until: now + 700_000, now: now + 300_000) == hash)
            #expect(
                try await harness.store.confirmUsernameHash(accountId: alice.accountId, hash: hash, now: now + 300_001, link: nil) == false)
            #expect(try await harness.store.confirmUsernameHash(accountId: bob.accountId, hash: hash, now: now + 300_001, link: nil))
            // Confirmed, it never lapses.
            #expect(
                try await harness.store.reserveUsernameHash(accountId: alice.accountId, candidates: [hash], until: .max, now: .max - 1)
                    == nil)
            #expect(try await harness.store.account(usernameHash: hash) == bob.accountId)
        }
    }

    @Test func malformedUsernameRequestsAreClearFourHundreds() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let notAPoint = Self.b64(Data(repeating: 0xff, count: 32))
            let hash = Self.b64(try Username("alice.42").hash)
            let cases: [(HTTPRequest.Method, String, String, HTTPResponse.Status)] = [
                (.put, UsernameRoutes.reserve, #"{"usernameHashes":[]}"#, .badRequest),
                (.put, UsernameRoutes.reserve, #"{"usernameHashes":["\#(notAPoint)"]}"#, .badRequest),
                (.put, UsernameRoutes.reserve, #"{"usernameHashes":["!!"]}"#, .badRequest),
                (
                    .put, UsernameRoutes.reserve,
                    "{\"usernameHashes\":[" + Array(repeating: "\"\(hash)\"", count: 21).joined(separator: ",") + "]}", .badRequest
                ),
                (.put, UsernameRoutes.reserve, #"{"usernameHashes":"x"}"#, .badRequest),
                (.put, UsernameRoutes.confirm, #"{"usernameHash":"\#(hash)","zkProof":"AAAA"}"#, .badRequest),
                (
                    .put, UsernameRoutes.confirm, #"{"usernameHash":"\#(hash)","zkProof":"\#(Self.b64(Data(count: 128)))"}"#,
                    .unprocessableContent
                ),
                (.put, UsernameRoutes.link, #"{"usernameLinkEncryptedValue":"\#(Self.b64(Data(count: 200)))"}"#, .badRequest),
                (.put, UsernameRoutes.link, #"{"usernameLinkEncryptedValue":"\#(Self.b64(Data(count: 100)))"}"#, .conflict),
                (.get, UsernameRoutes.lookup(usernameHash: notAPoint), "", .badRequest),
                (.get, UsernameRoutes.lookup(usernameHash: String(repeating: "A", count: 500)), "", .badRequest),
                (.get, UsernameRoutes.link(handle: "not-a-uuid"), "", .badRequest),
                (.get, UsernameRoutes.link(handle: UUID().uuidString), "", .notFound),
            ]
            for (method, uri, body, expected) in cases {
                let (status, answer) = try await client.call(method, uri, headers: alice.headers, raw: body.isEmpty ? nil : body)
                #expect(status == expected, "\(method) \(uri) \(body.prefix(80)): \(status) \(String(decoding: answer, as: UTF8.self))")
                #expect(status == .notFound || (try? JSONDecoder().decode(APIErrorBody.self, from: answer)) != nil)
            }
            // An account name shaped like a username would answer for it: refused at registration.
            let shaped = RegisterAccountRequest(
                username: "bob.42", identityKey: IdentityKeyPair.generate().publicKey.serialize().base64EncodedString(),
                registrationId: 7, password: Data(repeating: 1, count: 24).base64EncodedString(), deviceName: nil)
            let (refused, refusedBody) = try await client.call(.post, APIRoutes.accounts, json: shaped)
            #expect(refused == .badRequest && String(decoding: refusedBody, as: UTF8.self).contains("username's shape"))
            // Without credentials, the account routes are 401.
            #expect(try await client.call(.put, UsernameRoutes.reserve, raw: #"{"usernameHashes":["\#(hash)"]}"#).0 == .unauthorized)
        }
    }

    @Test func oneAddressLooksUpAHundredUsernamesThenFourAMinute() async throws {
        try await ServerHarness().runLive { client in
            let hash = Self.b64(try Username("nobody.42").hash)
            var answered = 0
            var refused = 0
            let started = Date()
            for _ in 0..<110 {
                let (status, _) = try await client.call(.get, UsernameRoutes.lookup(usernameHash: hash))
                if status == .notFound { answered += 1 } else if status == .tooManyRequests { refused += 1 }
            }
            // A hundred at once, then one more per 15 s the run took (on a loaded machine it once took 89 s), every
            // other request refused.
            let refills = Int(Date().timeIntervalSince(started) / 15) + 1
            #expect((100...(100 + refills)).contains(answered) && answered + refused == 110, "\(answered) answered, \(refused) refused")
            // Links share the budget: right after a refused lookup, a link read is refused too (tried again should a
            // token refill in between).
            var linkRefused = false
            for _ in 0..<5 where !linkRefused {
                var lookups = 0
                while lookups < 10, try await client.call(.get, UsernameRoutes.lookup(usernameHash: hash)).0 != .tooManyRequests {
                    lookups += 1
                }
                linkRefused = try await client.call(.get, UsernameRoutes.link(handle: UUID().uuidString)).0 == .tooManyRequests
            }
            #expect(linkRefused)
        }
    }
}
