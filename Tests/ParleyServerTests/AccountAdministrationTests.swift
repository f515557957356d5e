import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyProtocol
import ParleyServer
import Testing

/// Operator controls for an open server (both backends): registration open, by invite or closed; invites used up,
/// expired or raced; accounts listed, disabled, enabled and deleted through the operator API.
@Suite struct AccountAdministrationTests {
    static let operatorHeaders: HTTPFields = [.authorization: "Bearer \(ServerHarness.operatorToken)", .contentType: "application/json"]

    static func registration(_ username: String, invite: String? = nil) -> RegisterAccountRequest {
        let identity = IdentityKeyPair.generate()
        return RegisterAccountRequest(
            username: username, identityKey: identity.publicKey.serialize().base64EncodedString(), registrationId: 7,
            password: Data((0..<24).map { _ in UInt8.random(in: 0...255) }).base64EncodedString(), deviceName: nil, inviteToken: invite)
    }

    static func invite(_ client: some TestClientProtocol, uses: Int = 1, hours: Int? = nil) async throws -> InviteResponse {
        let (status, body) = try await client.call(
            .post, OperatorRoutes.invites, headers: operatorHeaders,
            json: CreateInviteRequest(uses: uses, expiresInHours: hours))
        #expect(status == .created)
        return try JSONDecoder().decode(InviteResponse.self, from: body)
    }

    static func code(_ body: Data) -> String? { try? JSONDecoder().decode(APIErrorBody.self, from: body).code }

    @Test func closedRegistrationRefusesEveryone() async throws {
        try await ServerHarness(registration: .closed).run { client in
            let (status, body) = try await client.call(.post, APIRoutes.accounts, json: Self.registration("alice"))
            #expect(status == .forbidden && Self.code(body) == "forbidden")
            #expect(String(decoding: body, as: UTF8.self).contains("closed"))
        }
    }

    @Test func invitesAdmitAsManyAsTheyAllowAndNoMore() async throws {
        let harness = try ServerHarness(registration: .token)
        try await harness.run { client in
            #expect(try await client.call(.post, APIRoutes.accounts, json: Self.registration("nobody")).0 == .forbidden, "no invite")
            #expect(
                try await client.call(.post, APIRoutes.accounts, json: Self.registration("guess", invite: "not-a-token")).0 == .forbidden)
            // Only the operator makes invites.
            #expect(try await client.call(.post, OperatorRoutes.invites, json: CreateInviteRequest()).0 == .unauthorized)
            #expect(
                try await client.call(
                    .post, OperatorRoutes.invites, headers: Self.operatorHeaders,
                    json: CreateInviteRequest(uses: 0)
                ).0 == .badRequest)

            let twice = try await Self.invite(client, uses: 2)
            #expect(twice.token.count >= 22 && twice.uses == 2)
            #expect(try await client.call(.post, APIRoutes.accounts, json: Self.registration("alice", invite: twice.token)).0 == .created)
            // A taken username does not use the invite up.
            #expect(try await client.call(.post, APIRoutes.accounts, json: Self.registration("ALICE", invite: twice.token)).0 == .conflict)
            #expect(try await client.call(.post, APIRoutes.accounts, json: Self.registration("bob", invite: twice.token)).0 == .created)
            let (spent, spentBody) = try await client.call(.post, APIRoutes.accounts, json: Self.registration("carol", invite: twice.token))
            #expect(spent == .forbidden && String(decoding: spentBody, as: UTF8.self).contains("used up"))

            // Ten registrations race for one single-use invite: exactly one gets in.
            let once = try await Self.invite(client)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<10 {
                    group.addTask {
                        try await client.call(.post, APIRoutes.accounts, json: Self.registration("racer\(index)", invite: once.token)).0
                    }
                }
                var statuses: [HTTPResponse.Status] = []
                for try await status in group { statuses.append(status) }
                return statuses
            }
            #expect(statuses.filter { $0 == .created }.count == 1 && statuses.filter { $0 == .forbidden }.count == 9)

            // An expired invite is refused: stored directly with an expiry in the past.
            try await harness.store.createInvite(
                StoredInvite(
                    tokenHash: Array(Data(SHA256Digest.of("expired"))), usesLeft: 5, expires: 1, created: 0))
            #expect(try await client.call(.post, APIRoutes.accounts, json: Self.registration("late", invite: "expired")).0 == .forbidden)
        }
    }

    @Test func operatorsListDisableEnableAndDeleteAccounts() async throws {
        try await ServerHarness().runLive { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            #expect(try await client.call(.get, OperatorRoutes.accounts).0 == .unauthorized)
            let wrong: HTTPFields = [.authorization: "Bearer not-the-operator-token"]
            #expect(try await client.call(.get, OperatorRoutes.accounts, headers: wrong).0 == .unauthorized)

            // Listed by id, in pages.
            let (_, firstBody) = try await client.call(.get, OperatorRoutes.accounts + "?limit=1", headers: Self.operatorHeaders)
            let first = try JSONDecoder().decode(OperatorAccountListResponse.self, from: firstBody)
            #expect(first.accounts.count == 1 && first.next == first.accounts[0].accountId)
            let (_, restBody) = try await client.call(
                .get, OperatorRoutes.accounts + "?limit=10&after=\(first.next ?? "")", headers: Self.operatorHeaders)
            let rest = try JSONDecoder().decode(OperatorAccountListResponse.self, from: restBody)
            #expect(rest.next == nil)
            let all = first.accounts + rest.accounts
            #expect(Set(all.map(\.username)) == ["alice", "bob"] && all.allSatisfy { $0.devices == 1 && !$0.disabled })
            #expect(try await client.call(.get, OperatorRoutes.accounts + "?limit=0", headers: Self.operatorHeaders).0 == .badRequest)

            // Disabled: alice's device gets 403 and her open socket closes; enabled again, it works.
            try await client.withSocket(alice) { socket in
                _ = try await socket.expect(.queueEmpty)
                #expect(
                    try await client.call(
                        .put, OperatorRoutes.accountDisabled(alice.accountId), headers: Self.operatorHeaders,
                        json: AccountDisabledRequest(disabled: true)
                    ).0 == .noContent)
                while let frame = try await socket.next() { _ = frame }  // the server closes it
            }
            let (refused, refusedBody) = try await client.call(.get, APIRoutes.devices, headers: alice.headers)
            #expect(refused == .forbidden && String(decoding: refusedBody, as: UTF8.self).contains("disabled"))
            let impostor = Member(accountId: alice.accountId, deviceId: 1, password: bob.password, store: alice.store)
            #expect(
                try await client.call(.get, APIRoutes.devices, headers: impostor.headers).0 == .unauthorized,
                "only a device with the right credential learns the account is disabled")
            let (_, listed) = try await client.call(.get, OperatorRoutes.accounts, headers: Self.operatorHeaders)
            #expect(
                try JSONDecoder().decode(OperatorAccountListResponse.self, from: listed).accounts
                    .first { $0.accountId == alice.accountId }?.disabled == true)
            #expect(
                try await client.call(
                    .put, OperatorRoutes.accountDisabled(alice.accountId), headers: Self.operatorHeaders,
                    json: AccountDisabledRequest(disabled: false)
                ).0 == .noContent)
            #expect(try await client.call(.get, APIRoutes.devices, headers: alice.headers).0 == .ok)

            // Deleted: gone with its devices, its open socket closed; the username is free again.
            try await client.withSocket(bob) { socket in
                _ = try await socket.expect(.queueEmpty)
                #expect(
                    try await client.call(.delete, OperatorRoutes.account(bob.accountId), headers: Self.operatorHeaders).0 == .noContent)
                while let frame = try await socket.next() { _ = frame }  // the server closes it
            }
            #expect(try await client.call(.get, APIRoutes.devices, headers: bob.headers).0 == .unauthorized)
            #expect(try await client.call(.delete, OperatorRoutes.account(bob.accountId), headers: Self.operatorHeaders).0 == .notFound)
            #expect(
                try await client.call(
                    .put, OperatorRoutes.accountDisabled(UUID().uuidString), headers: Self.operatorHeaders,
                    json: AccountDisabledRequest(disabled: true)
                ).0 == .notFound)
            _ = try await client.register("bob")
        }
    }
}

private enum SHA256Digest {
    /// SHA-256 of `text`'s UTF-8 (how the server keys invite tokens).
    static func of(_ text: String) -> [UInt8] { Array(Crypto.SHA256.hash(data: Data(text.utf8))) }
}
