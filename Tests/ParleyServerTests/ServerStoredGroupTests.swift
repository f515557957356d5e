import Foundation
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyProtocol
import ParleyServer
import SwiftProtobuf
import Testing

/// Server-stored groups (issue 44, part 2) through the real routes, each call authenticated by an auth credential
/// presentation and each member added by a profile key credential presentation, all obtained from the server and
/// made with LibSignalClient's client operations. On SQLite, and on PostgreSQL when the suite runs there.
@Suite struct ServerStoredGroupTests {
    /// A new group of `admin` (administrator) and `members` (ordinary members) with `title`, `access` and an invite
    /// link password; returns its secret params after the server accepted it.
    static func create(
        _ client: any TestClientProtocol, admin: GroupTestAccount, members: [GroupTestAccount] = [], title: String = "Climbing club",
        attributes: Signal_AccessControl.AccessRequired = .member, link: Signal_AccessControl.AccessRequired = .unsatisfiable
    ) async throws -> GroupSecretParams {
        let secret = try GroupSecretParams.generate()
        let cipher = ClientZkGroupCipher(groupSecretParams: secret)
        var group = Signal_Group()
        group.publicKey = try secret.getPublicParams().serialize()
        group.title = try cipher.encryptBlob(plaintext: Data(title.utf8))
        group.accessControl = .with {
            $0.attributes = attributes
            $0.members = .member
            $0.addFromInviteLink = link
        }
        group.members = [try admin.member(secret, role: .administrator)] + (try members.map { try $0.member(secret, role: .default) })
        let (status, _, body) = try await client.group(.put, headers: try admin.headers(secret), body: try group.serializedBytes())
        guard status == .ok else { throw HarnessError.unexpected(status, body) }
        return secret
    }

    static func patch(
        _ client: any TestClientProtocol, _ account: GroupTestAccount, _ secret: GroupSecretParams, version: UInt32,
        linkPassword: Data? = nil, _ build: (inout Signal_GroupChange.Actions) throws -> Void
    ) async throws -> (HTTPResponse.Status, Data) {
        var actions = Signal_GroupChange.Actions()
        actions.version = version
        try build(&actions)
        let uri = APIRoutes.groups + (linkPassword.map { "?inviteLinkPassword=" + Base64URL.encode($0) } ?? "")
        let (status, _, body) = try await client.group(
            .patch, uri, headers: try account.headers(secret), body: try actions.serializedBytes())
        return (status, body)
    }

    static func fetch(_ client: any TestClientProtocol, _ account: GroupTestAccount, _ secret: GroupSecretParams) async throws
        -> (HTTPResponse.Status, Signal_Group?)
    {
        let (status, _, body) = try await client.group(.get, headers: try account.headers(secret))
        guard status == .ok else { return (status, nil) }
        return (status, try Signal_GroupResponse(serializedBytes: Array(body)).group)
    }

    @Test func theServerEnforcesWhatTheAccessControlReservesToAdministrators() async throws {
        try await ServerHarness().run { client in
            let alice = try await GroupTestAccount.register("alice", on: client)
            let bob = try await GroupTestAccount.register("bob", on: client)
            let carol = try await GroupTestAccount.register("carol", on: client)
            let secret = try await Self.create(client, admin: alice, members: [bob], attributes: .administrator)
            let cipher = ClientZkGroupCipher(groupSecretParams: secret)

            // Members read the group; the server stored ciphertexts that decrypt to who they are.
            let (status, group) = try await Self.fetch(client, bob, secret)
            #expect(status == .ok)
            let stored = try #require(group)
            #expect(try stored.members.map { try cipher.decrypt(UuidCiphertext(contents: $0.userID)) } == [alice.aci, bob.aci])
            #expect(
                try cipher.decryptProfileKey(
                    profileKeyCiphertext: ProfileKeyCiphertext(contents: stored.members[1].profileKey), userId: bob.aci
                ).serialize()
                    == bob.profileKey.serialize())
            #expect(stored.members.allSatisfy { $0.presentation.isEmpty })
            #expect(try cipher.decryptBlob(blobCiphertext: stored.title) == Data("Climbing club".utf8))
            // Someone who is not a member cannot, and a request without a valid presentation is a 401.
            #expect(try await Self.fetch(client, carol, secret).0 == .forbidden)
            #expect(try await client.group(.get, headers: [.authorization: "Basic Zm9vOmJhcg=="]).0 == .unauthorized)

            // Bob may not change the title (administrators only here), make himself an administrator or remove Alice.
            let title = try cipher.encryptBlob(plaintext: Data("Bob's club".utf8))
            #expect(try await Self.patch(client, bob, secret, version: 1) { $0.modifyTitle.title = title }.0 == .forbidden)
            #expect(
                try await Self.patch(client, bob, secret, version: 1) {
                    $0.modifyMemberRoles = [
                        try .with {
                            $0.userID = try bob.userId(secret)
                            $0.role = .administrator
                        }
                    ]
                }.0 == .forbidden)
            #expect(
                try await Self.patch(client, bob, secret, version: 1) {
                    $0.deleteMembers = [try .with { $0.deletedUserID = try alice.userId(secret) }]
                }.0 == .forbidden)
            // Nor may a non-member add themselves.
            #expect(
                try await Self.patch(client, carol, secret, version: 1) {
                    $0.addMembers = [try .with { $0.added = try carol.member(secret, role: .default) }]
                }
                .0 == .forbidden)

            // Alice may; the change comes back signed by the server, naming her as its author.
            let (changed, body) = try await Self.patch(client, alice, secret, version: 1) { $0.modifyTitle.title = title }
            #expect(changed == .ok)
            let change = try Signal_GroupChangeResponse(serializedBytes: Array(body)).groupChange
            try alice.serverParams.verifySignature(
                message: change.actions, notarySignature: NotarySignature(contents: change.serverSignature))
            let actions = try Signal_GroupChange.Actions(serializedBytes: Array(change.actions))
            #expect(actions.sourceUuid == (try alice.userId(secret)) && actions.version == 1)
            #expect(
                try cipher.decryptBlob(blobCiphertext: try #require(try await Self.fetch(client, bob, secret).1).title)
                    == Data("Bob's club".utf8))

            // A change made from an old revision is refused with 409.
            let (stale, staleBody) = try await Self.patch(client, alice, secret, version: 1) { $0.modifyTitle.title = title }
            #expect(stale == .conflict)
            #expect(try JSONDecoder().decode(APIErrorBody.self, from: staleBody).code == "group_revision_conflict")
        }
    }

    @Test func membersReadEndorsementsTheyCanCheckIssuedOncePerRevision() async throws {
        try await ServerHarness().run { client in
            let alice = try await GroupTestAccount.register("alice", on: client)
            let bob = try await GroupTestAccount.register("bob", on: client)
            let secret = try await Self.create(client, admin: alice, members: [bob])
            var responses: [Data] = []
            for reader in [alice, bob] {
                let (status, _, body) = try await client.group(.get, headers: try reader.headers(secret))
                #expect(status == .ok)
                responses.append(try Signal_GroupResponse(serializedBytes: Array(body)).groupSendCredentialResponse)
            }
            // One issuance serves both reads of the revision; each member checks it against the group it read.
            #expect(responses[0] == responses[1] && !responses[0].isEmpty)
            let members = try [alice, bob].map { try UuidCiphertext(contents: try $0.userId(secret)) }
            let received = try GroupSendEndorsementsResponse(contents: responses[1]).receive(
                groupMembers: members, localUser: members[1], serverParams: bob.serverParams)
            #expect(received.endorsements.count == 2)
            // A change makes a new revision and new endorsements.
            let title = try ClientZkGroupCipher(groupSecretParams: secret).encryptBlob(plaintext: Data("new".utf8))
            let (_, changeBody) = try await Self.patch(client, alice, secret, version: 1) { $0.modifyTitle.title = title }
            #expect(try Signal_GroupChangeResponse(serializedBytes: Array(changeBody)).groupSendCredentialResponse != responses[0])
        }
    }

    @Test func aRequestCannotRepeatItsOwnEntryOrSmuggleFields() async throws {
        try await ServerHarness().run { client in
            let alice = try await GroupTestAccount.register("alice", on: client)
            let secret = try await Self.create(client, admin: alice)
            // One's own profile key updated twice in one change: refused before any presentation is checked.
            let presentation = try alice.member(secret, role: .default).presentation
            let (status, body) = try await Self.patch(client, alice, secret, version: 1) {
                $0.modifyMemberProfileKeys = Array(repeating: .with { $0.presentation = presentation }, count: 2)
            }
            #expect(status == .badRequest, "\(String(decoding: body, as: UTF8.self))")
            // A field the server does not know (number 99, 2,000 bytes) is neither stored nor signed.
            var change = Signal_GroupChange.Actions()
            change.version = 1
            change.modifyTitle.title = try ClientZkGroupCipher(groupSecretParams: secret).encryptBlob(plaintext: Data("t".utf8))
            let padding: [UInt8] = [0x9A, 0x06, 0xD0, 0x0F] + Array(repeating: 0x41, count: 2_000)  // field 99, length 2000
            let (changed, _, changeBody) = try await client.group(
                .patch, headers: try alice.headers(secret), body: try change.serializedBytes() + padding)
            #expect(changed == .ok)
            let signed = try Signal_GroupChange.Actions(
                serializedBytes: Array(try Signal_GroupChangeResponse(serializedBytes: Array(changeBody)).groupChange.actions))
            #expect(signed.unknownFields.data.isEmpty)
            let stored = try #require(try await Self.fetch(client, alice, secret).1)
            #expect(stored.unknownFields.data.isEmpty && stored.version == 1)
        }
    }

    @Test func twoAdministratorsChangingAtOnceEndOnOneAgreedRevision() async throws {
        try await ServerHarness().run { client in
            let alice = try await GroupTestAccount.register("alice", on: client)
            let bob = try await GroupTestAccount.register("bob", on: client)
            let carol = try await GroupTestAccount.register("carol", on: client)
            let dave = try await GroupTestAccount.register("dave", on: client)
            let secret = try await Self.create(client, admin: alice, members: [bob])
            #expect(
                try await Self.patch(client, alice, secret, version: 1) {
                    $0.modifyMemberRoles = [
                        try .with {
                            $0.userID = try bob.userId(secret)
                            $0.role = .administrator
                        }
                    ]
                }.0 == .ok)

            // Both make a change from revision 1 at the same time: exactly one lands.
            async let first = Self.patch(client, alice, secret, version: 2) {
                $0.addMembers = [try .with { $0.added = try carol.member(secret, role: .default) }]
            }
            async let second = Self.patch(client, bob, secret, version: 2) {
                $0.addMembers = [try .with { $0.added = try dave.member(secret, role: .default) }]
            }
            let outcomes = [try await first.0, try await second.0]
            #expect(outcomes.sorted { $0.code < $1.code } == [.ok, .conflict])

            // The loser reads the changes since its revision and makes its change again on top.
            let loser = outcomes[0] == .conflict ? alice : bob
            let (logStatus, _, logBody) = try await client.group(.get, "/v2/groups/logs/2", headers: try loser.headers(secret))
            #expect(logStatus == .ok)
            #expect(try Signal_GroupChanges(serializedBytes: Array(logBody)).groupChanges.count == 1)
            let retried = try await Self.patch(client, loser, secret, version: 3) {
                $0.addMembers = [try .with { $0.added = try (loser.aci == alice.aci ? carol : dave).member(secret, role: .default) }]
            }
            #expect(retried.0 == .ok)

            // Everyone reads one state: revision 3 with all four members.
            let cipher = ClientZkGroupCipher(groupSecretParams: secret)
            for reader in [alice, bob] {
                let group = try #require(try await Self.fetch(client, reader, secret).1)
                #expect(group.version == 3)
                #expect(
                    Set(try group.members.map { try cipher.decrypt(UuidCiphertext(contents: $0.userID)).serviceIdString })
                        == Set([alice, bob, carol, dave].map(\.aci.serviceIdString)))
            }
        }
    }

    @Test func aRemovedMemberCannotFetchTheGroupOrItsChanges() async throws {
        try await ServerHarness().run { client in
            let alice = try await GroupTestAccount.register("alice", on: client)
            let bob = try await GroupTestAccount.register("bob", on: client)
            let secret = try await Self.create(client, admin: alice, members: [bob])
            #expect(try await Self.fetch(client, bob, secret).0 == .ok)
            #expect(
                try await Self.patch(client, alice, secret, version: 1) {
                    $0.deleteMembers = [try .with { $0.deletedUserID = try bob.userId(secret) }]
                }
                .0 == .ok)
            #expect(try await Self.fetch(client, bob, secret).0 == .forbidden)
            #expect(try await client.group(.get, "/v2/groups/logs/0", headers: try bob.headers(secret)).0 == .forbidden)
            // Nor can he change it, or add himself back.
            #expect(
                try await Self.patch(client, bob, secret, version: 2) {
                    $0.addMembers = [try .with { $0.added = try bob.member(secret, role: .default) }]
                }
                .0 == .forbidden)
            // A member who leaves needs no administrator: Alice (the last administrator) cannot leave members behind
            // without one.
            #expect(
                try await Self.patch(client, alice, secret, version: 2) {
                    $0.deleteMembers = [try .with { $0.deletedUserID = try alice.userId(secret) }]
                }
                .0 == .ok)
        }
    }

    @Test func aPersonWithTheLinkJoinsOrAsksAndIsApproved() async throws {
        try await ServerHarness().run { client in
            let alice = try await GroupTestAccount.register("alice", on: client)
            let carol = try await GroupTestAccount.register("carol", on: client)
            let dave = try await GroupTestAccount.register("dave", on: client)
            let erin = try await GroupTestAccount.register("erin", on: client)
            let secret = try await Self.create(client, admin: alice, title: "Book club")
            let password = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
            #expect(
                try await Self.patch(client, alice, secret, version: 1) {
                    $0.modifyInviteLinkPassword.inviteLinkPassword = password
                    $0.modifyAddFromInviteLinkAccess.addFromInviteLinkAccess = .any
                }.0 == .ok)

            // Carol has the link (the master key and the password): she sees what it is, then joins.
            let joinPath = APIRoutes.groupJoinInfo.replacingOccurrences(of: "{inviteLinkPassword}", with: Base64URL.encode(password))
            let (infoStatus, _, infoBody) = try await client.group(.get, joinPath, headers: try carol.headers(secret))
            #expect(infoStatus == .ok)
            let info = try Signal_GroupJoinInfo(serializedBytes: Array(infoBody))
            #expect(info.memberCount == 1 && info.addFromInviteLink == .any && info.version == 1)
            #expect(try ClientZkGroupCipher(groupSecretParams: secret).decryptBlob(blobCiphertext: info.title) == Data("Book club".utf8))
            let wrong = Data(repeating: 1, count: 16)
            let wrongPath = APIRoutes.groupJoinInfo.replacingOccurrences(of: "{inviteLinkPassword}", with: Base64URL.encode(wrong))
            #expect(try await client.group(.get, wrongPath, headers: try dave.headers(secret)).0 == .forbidden)
            let join: (inout Signal_GroupChange.Actions, GroupTestAccount) throws -> Void = { actions, account in
                actions.addMembers = [
                    try .with {
                        $0.added = try account.member(secret, role: .default)
                        $0.joinFromInviteLink = true
                    }
                ]
            }
            #expect(try await Self.patch(client, dave, secret, version: 2, linkPassword: wrong) { try join(&$0, dave) }.0 == .forbidden)
            #expect(try await Self.patch(client, carol, secret, version: 2, linkPassword: password) { try join(&$0, carol) }.0 == .ok)
            #expect(try await Self.fetch(client, carol, secret).0 == .ok)

            // With approval required, Erin asks; the link shows her request pending; Alice approves.
            #expect(
                try await Self.patch(client, alice, secret, version: 3) {
                    $0.modifyAddFromInviteLinkAccess.addFromInviteLinkAccess = .administrator
                }
                .0 == .ok)
            #expect(try await Self.patch(client, erin, secret, version: 4, linkPassword: password) { try join(&$0, erin) }.0 == .forbidden)
            #expect(
                try await Self.patch(client, erin, secret, version: 4, linkPassword: password) {
                    $0.addMembersPendingAdminApproval = [
                        try .with { $0.added.presentation = try erin.member(secret, role: .default).presentation }
                    ]
                }.0 == .ok)
            let (_, _, pendingBody) = try await client.group(.get, joinPath, headers: try erin.headers(secret))
            #expect(try Signal_GroupJoinInfo(serializedBytes: Array(pendingBody)).pendingAdminApproval)
            #expect(try await Self.fetch(client, erin, secret).0 == .forbidden)
            #expect(
                try await Self.patch(client, alice, secret, version: 5) {
                    $0.promoteMembersPendingAdminApproval = [
                        try .with {
                            $0.userID = try erin.userId(secret)
                            $0.role = .default
                        }
                    ]
                }.0 == .ok)
            #expect(try await Self.fetch(client, erin, secret).1?.members.count == 3)

            // Banned, Dave can neither see the link's group nor ask.
            #expect(
                try await Self.patch(client, alice, secret, version: 6) {
                    $0.addMembersBanned = [try .with { $0.added.userID = try dave.userId(secret) }]
                }
                .0 == .ok)
            #expect(try await client.group(.get, joinPath, headers: try dave.headers(secret)).0 == .forbidden)
            #expect(
                try await Self.patch(client, dave, secret, version: 7, linkPassword: password) {
                    $0.addMembersPendingAdminApproval = [
                        try .with { $0.added.presentation = try dave.member(secret, role: .default).presentation }
                    ]
                }.0 == .forbidden)
        }
    }

    @Test func theChangeLogIsSignedPagedAndStartsWhereTheReaderJoined() async throws {
        var limits = ServerLimits()
        limits.groups.changesPerPage = 2
        try await ServerHarness(limits: limits).run { client in
            let alice = try await GroupTestAccount.register("alice", on: client)
            let bob = try await GroupTestAccount.register("bob", on: client)
            let secret = try await Self.create(client, admin: alice)
            let cipher = ClientZkGroupCipher(groupSecretParams: secret)
            for version in 1...3 {
                let title = try cipher.encryptBlob(plaintext: Data("title \(version)".utf8))
                #expect(try await Self.patch(client, alice, secret, version: UInt32(version)) { $0.modifyTitle.title = title }.0 == .ok)
            }
            let (status, headers, body) = try await client.group(
                .get, "/v2/groups/logs/0?includeFirstState=true", headers: try alice.headers(secret))
            #expect(status == .partialContent)
            #expect(headers[.contentRange] == "versions 0-1/3")
            let page = try Signal_GroupChanges(serializedBytes: Array(body))
            #expect(page.groupChanges.count == 2 && page.groupChanges[0].hasGroupState && !page.groupChanges[1].hasGroupState)
            for entry in page.groupChanges {
                try alice.serverParams.verifySignature(
                    message: entry.groupChange.actions, notarySignature: NotarySignature(contents: entry.groupChange.serverSignature))
            }
            let (last, _, lastBody) = try await client.group(
                .get, "/v2/groups/logs/2?includeLastState=true", headers: try alice.headers(secret))
            #expect(last == .ok)
            let lastPage = try Signal_GroupChanges(serializedBytes: Array(lastBody))
            #expect(
                try cipher.decryptBlob(blobCiphertext: try #require(lastPage.groupChanges.last).groupState.title) == Data("title 3".utf8))

            // Bob joins at revision 4: he may read from there, not before.
            #expect(
                try await Self.patch(client, alice, secret, version: 4) {
                    $0.addMembers = [try .with { $0.added = try bob.member(secret, role: .default) }]
                }
                .0 == .ok)
            #expect(try await client.group(.get, "/v2/groups/logs/3", headers: try bob.headers(secret)).0 == .forbidden)
            #expect(try await client.group(.get, "/v2/groups/logs/4", headers: try bob.headers(secret)).0 == .ok)
        }
    }

    @Test func malformedGroupRequestsAreClearFourHundreds() async throws {
        try await ServerHarness().run { client in
            let alice = try await GroupTestAccount.register("alice", on: client)
            let secret = try GroupSecretParams.generate()
            let headers = try alice.headers(secret)
            // No such group yet.
            #expect(try await client.group(.get, headers: headers).0 == .notFound)
            // Bodies that are not protobufs, or a group under other params, or without its creator as administrator.
            for body: [UInt8] in [[0xFF, 0xFF, 0xFF], Array(repeating: 0x0A, count: 5)] {
                let (status, _, answer) = try await client.group(.put, headers: headers, body: body)
                #expect(status == .badRequest)
                #expect(try JSONDecoder().decode(APIErrorBody.self, from: answer).code == "bad_request")
            }
            var other = Signal_Group()
            other.publicKey = try GroupSecretParams.generate().getPublicParams().serialize()
            other.members = [try alice.member(secret, role: .administrator)]
            #expect(try await client.group(.put, headers: headers, body: try other.serializedBytes()).0 == .badRequest)
            var noAdmin = Signal_Group()
            noAdmin.publicKey = try secret.getPublicParams().serialize()
            noAdmin.members = [try alice.member(secret, role: .default)]
            #expect(try await client.group(.put, headers: headers, body: try noAdmin.serializedBytes()).0 == .forbidden)
            // A presentation for another group does not verify.
            var foreign = Signal_Group()
            foreign.publicKey = try secret.getPublicParams().serialize()
            foreign.members = [try alice.member(try GroupSecretParams.generate(), role: .administrator)]
            #expect(try await client.group(.put, headers: headers, body: try foreign.serializedBytes()).0 == .forbidden)
            // Created once; a second creation is refused.
            _ = try await Self.create(client, admin: alice)
            let created = try await Self.create(client, admin: alice)
            var again = Signal_Group()
            again.publicKey = try created.getPublicParams().serialize()
            again.members = [try alice.member(created, role: .administrator)]
            #expect(try await client.group(.put, headers: try alice.headers(created), body: try again.serializedBytes()).0 == .badRequest)
            // An empty change and a change of nothing are refused; a bad revision number in the log path too.
            #expect(try await Self.patch(client, alice, created, version: 1) { _ in }.0 == .badRequest)
            #expect(try await client.group(.get, "/v2/groups/logs/x", headers: try alice.headers(created)).0 == .badRequest)
            #expect(try await client.group(.get, "/v2/groups/logs/99", headers: try alice.headers(created)).0 == .badRequest)
        }
    }
    /// What the server stores of a group names nobody: after three people, a title, a description, an invite link and
    /// a join, no account id, username, title or description appears in the group's rows in any encoding, and on SQLite
    /// the title and description appear nowhere in the database file.
    @Test func theServerStoresNoMemberIdTitleOrDescription() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let names = ["ada-lovelace", "grace-hopper", "katherine-johnson"]
            let alice = try await GroupTestAccount.register(names[0], on: client)
            let bob = try await GroupTestAccount.register(names[1], on: client)
            let carol = try await GroupTestAccount.register(names[2], on: client)
            let title = "Secret society of compilers"
            let description = "We meet on Thursdays under the old bridge"
            let secret = try await Self.create(client, admin: alice, members: [bob], title: title)
            let cipher = ClientZkGroupCipher(groupSecretParams: secret)
            let password = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
            let encryptedDescription = try cipher.encryptBlob(plaintext: Data(description.utf8))
            #expect(
                try await Self.patch(client, alice, secret, version: 1) {
                    $0.modifyDescription.description_p = encryptedDescription
                    $0.modifyInviteLinkPassword.inviteLinkPassword = password
                    $0.modifyAddFromInviteLinkAccess.addFromInviteLinkAccess = .any
                }.0 == .ok)
            #expect(
                try await Self.patch(client, carol, secret, version: 2, linkPassword: password) {
                    $0.addMembers = [
                        try .with {
                            $0.added = try carol.member(secret, role: .default)
                            $0.joinFromInviteLink = true
                        }
                    ]
                }.0 == .ok)

            // Every byte the server keeps for the group: its row and every log entry.
            let id = [UInt8](try secret.getPublicParams().getGroupIdentifier().serialize())
            let group = try #require(try await harness.store.group(id: id))
            let log = try await harness.store.groupChanges(id: id, from: 0, limit: 100)
            #expect(log.map(\.version) == [0, 1, 2])
            var stored = group.id + group.state
            for entry in log { stored += entry.change + entry.state }

            var secrets: [String: [UInt8]] = ["title": Array(title.utf8), "description": Array(description.utf8)]
            for (name, account) in zip(names, [alice, bob, carol]) {
                secrets["username \(name)"] = Array(name.utf8)
                secrets["account id of \(name)"] = Array(account.member.accountId.utf8)
                secrets["ACI bytes of \(name)"] = Array(account.aci.serviceIdBinary)
                secrets["profile key of \(name)"] = Array(account.profileKey.serialize())
            }
            // The search finds what is there: the member ids, as the ciphertexts the group holds.
            #expect(Self.contains(stored, Array(try carol.userId(secret))))
            for (what, bytes) in secrets {
                for (encoding, encoded) in Self.encodings(of: bytes) {
                    #expect(!Self.contains(stored, encoded), "the group's rows hold the \(what) (\(encoding))")
                }
            }
            // The title and description are nowhere in the database (SQLite: the file and its write-ahead log).
            if harness.store is SQLiteStore {
                var file: [UInt8] = []
                for suffix in ["", "-wal"] {
                    let path = harness.directory.appendingPathComponent("server.sqlite" + suffix).path
                    if let data = FileManager.default.contents(atPath: path) { file += data }
                }
                #expect(!file.isEmpty)
                for what in ["title", "description"] {
                    for (encoding, encoded) in Self.encodings(of: secrets[what]!) {
                        #expect(!Self.contains(file, encoded), "the database holds the \(what) (\(encoding))")
                    }
                }
            }
        }
    }

    /// `bytes` as raw bytes, hex (both cases), base64 and base64url, and for text also UTF-16.
    static func encodings(of bytes: [UInt8]) -> [(String, [UInt8])] {
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        var encodings: [(String, [UInt8])] = [
            ("raw", bytes), ("hex", Array(hex.utf8)), ("HEX", Array(hex.uppercased().utf8)),
            ("base64", Array(Data(bytes).base64EncodedString().trimmingCharacters(in: ["="]).utf8)),
            ("base64url", Array(Base64URL.encode(bytes).utf8)),
        ]
        if let text = String(bytes: bytes, encoding: .utf8) {
            encodings.append(("UTF-16", Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }))
            encodings.append(("upper case", Array(text.uppercased().utf8)))
        }
        return encodings
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        !needle.isEmpty && Data(haystack).range(of: Data(needle)) != nil
    }
}
