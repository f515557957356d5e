import Foundation
import ParleyAPI
import ParleyProtocol
import SwiftProtobuf

/// Server-stored groups on this device: creating them, reading them from the server, changing them (made from the
/// latest revision, again on a 409), joining by invite link, and keeping this device's copy. The server stores only
/// ciphertexts under the group's master key and knows callers only by anonymous credential presentations.
struct ServerGroups: Sendable {
    let database: ParleyDatabase
    let api: ParleyServerClient
    let accounts: AccountManager
    let credentialCache: GroupCredentialCache
    /// Milliseconds since 1970.
    let now: @Sendable () -> UInt64

    /// How often a change is made again after another change got there first.
    static let changeAttempts = 4

    /// The keys of the group with `masterKey`.
    /// - Throws: ``ParleyError/malformedContent(_:)`` unless it is 32 bytes.
    static func secret(_ masterKey: Data) throws -> GroupSecretParams {
        guard let key = try? GroupMasterKey(contents: masterKey) else {
            throw ParleyError.malformedContent("a group master key is 32 bytes")
        }
        return try GroupSecretParams.deriveFromMasterKey(groupMasterKey: key)
    }

    private var date: Date { Date(timeIntervalSince1970: TimeInterval(now()) / 1000) }

    // MARK: Credentials

    /// The revision after `version`.
    /// - Throws: ``ParleyError/Server/malformedResponse(_:)`` at the last revision (only a server lying could say so).
    static func next(_ version: UInt32) throws -> UInt32 {
        let (next, overflow) = version.addingReportingOverflow(1)
        guard !overflow else { throw ParleyError.server(.malformedResponse("a group at the last revision")) }
        return next
    }

    /// The `Authorization` header of a call to the group of `secret`: a fresh presentation of today's credential.
    func authorization(_ secret: GroupSecretParams) async throws -> String {
        let day = now() / 1000 / 86_400 * 86_400
        let credential = try await credentialCache.credential(for: day) {
            if let kept = try keptCredentials(), kept[day] != nil { return kept }
            let fetched = try await accounts.groupAuthCredentials(days: 7, now: date)
            try await keep(fetched, from: day)
            return fetched
        }
        let presentation = try ClientZkAuthOperations(serverPublicParams: try await accounts.zkGroupPublicParams())
            .createAuthCredentialPresentation(groupSecretParams: secret, authCredential: credential)
        return APIRoutes.groupAuthorization(publicParams: try secret.getPublicParams().serialize(), presentation: presentation.serialize())
    }

    /// The credentials kept in the database, by day.
    private func keptCredentials() throws -> [UInt64: AuthCredentialWithPni]? {
        guard let text = try database.read({ try SettingsTable.value(SettingsTable.groupAuthCredentials, $0) }),
            let encoded = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))
        else { return nil }
        var kept: [UInt64: AuthCredentialWithPni] = [:]
        for (day, base64) in encoded {
            guard let day = UInt64(day), let bytes = Data(base64Encoded: base64),
                let credential = try? AuthCredentialWithPni(contents: bytes)
            else { continue }
            kept[day] = credential
        }
        return kept
    }

    /// Keeps `credentials` from `today` on (older days are dropped).
    private func keep(_ credentials: [UInt64: AuthCredentialWithPni], from today: UInt64) async throws {
        let encoded = Dictionary(
            uniqueKeysWithValues: credentials.filter { $0.key >= today }.map {
                (String($0.key), $0.value.serialize().base64EncodedString())
            })
        let text = String(decoding: try JSONEncoder().encode(encoded), as: UTF8.self)
        try await database.awaitableWrite { db in try SettingsTable.set(SettingsTable.groupAuthCredentials, to: text, db) }
    }

    /// A member entry for `accountId` in the group of `secret`: a presentation of a profile key credential for the
    /// profile key this device knows for them. `nil` when it knows none, or the server issues none for it (the person
    /// published no commitment to it): invite them instead.
    func member(_ accountId: String, role: Signal_Member.Role, secret: GroupSecretParams) async throws -> Signal_Member? {
        let (me, key) = try database.read { db in
            let me = try LocalAccount.credentials(db).accountId
            return (me, accountId == me ? try LocalAccountTable.profileKey(db) : try RecipientsTable.profileKey(of: accountId, db))
        }
        guard let key else { return nil }
        if accountId == me { try await accounts.publishProfileKeyCommitmentIfNeeded() }
        let credential: ExpiringProfileKeyCredential
        do {
            credential = try await accounts.profileKeyCredential(for: accountId, profileKey: key)
        } catch let error as ParleyError where error.server?.status == 404 || error.server?.status == 403 {
            return nil
        }
        let presentation = try ClientZkProfileOperations(serverPublicParams: try await accounts.zkGroupPublicParams())
            .createProfileKeyCredentialPresentation(groupSecretParams: secret, profileKeyCredential: credential)
        return Signal_Member.with {
            $0.role = role
            $0.presentation = presentation.serialize()
        }
    }

    /// `accountId`'s member id in the group of `secret`.
    static func userId(_ accountId: String, _ secret: GroupSecretParams) throws -> Data {
        try ClientZkGroupCipher(groupSecretParams: secret).encrypt(AccountManager.aci(accountId)).serialize()
    }

    /// `text` as the encrypted attribute blob Signal's clients write.
    static func blob(_ attribute: Signal_GroupAttributeBlob, _ secret: GroupSecretParams) throws -> Data {
        try ClientZkGroupCipher(groupSecretParams: secret).encryptBlob(plaintext: try attribute.serializedData())
    }

    // MARK: Creating and reading

    /// Creates a group titled `title` of this account (its administrator) and `members` (account ids): those whose
    /// profile key this device knows and who published its commitment become members at once, the others are invited
    /// (they join when their device hears of the group). Returns the conversation and the master key.
    func create(title: String, members: [String]) async throws -> (conversationId: Int64, masterKey: Data) {
        guard !title.isEmpty, title.utf8.count <= GroupContext.maximumTitleBytes else {
            throw ParleyError.invalidArgument("a group title is 1…\(GroupContext.maximumTitleBytes) bytes")
        }
        let me = try database.read(LocalAccount.credentials).accountId
        let others = Array(Set(members).subtracting([me])).sorted()
        guard others.count < GroupContext.maximumMembers else {
            throw ParleyError.invalidArgument("a group has at most \(GroupContext.maximumMembers) members")
        }
        var generator = SystemRandomNumberGenerator()
        let masterKey = Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let secret = try Self.secret(masterKey)
        var group = Signal_Group()
        group.publicKey = try secret.getPublicParams().serialize()
        group.title = try Self.blob(.with { $0.title = title }, secret)
        group.accessControl = .with {
            $0.attributes = .member
            $0.members = .member
            $0.addFromInviteLink = .unsatisfiable
        }
        guard let creator = try await member(me, role: .administrator, secret: secret) else {
            throw ParleyError.invalidArgument("this account has no profile key yet: run `parley receive` once, then try again")
        }
        group.members = [creator]
        for accountId in others {
            if let entry = try await member(accountId, role: .default, secret: secret) {
                group.members.append(entry)
            } else {
                let userId = try Self.userId(accountId, secret)
                group.membersPendingProfileKey.append(
                    .with {
                        $0.member = .with {
                            $0.userID = userId
                            $0.role = .default
                        }
                    })
            }
        }
        let response = try await api.createGroup(group, authorization: try await authorization(secret))
        let now = now()
        let conversationId = try await database.awaitableWrite { db in
            try ServerGroupRecorder.record(response.group, masterKey: masterKey, author: me, localAccountId: me, now: now, db)
        }
        guard let conversationId else { throw ParleyError.server(.malformedResponse("the created group does not name its creator")) }
        return (conversationId, masterKey)
    }

    /// The group of `masterKey` as the server has it now; `nil` when the server will not show it to this account
    /// (not a member or invited, or no such group).
    func fetch(_ secret: GroupSecretParams) async throws -> Signal_Group? {
        do {
            return try await api.fetchGroup(authorization: try await authorization(secret)).group
        } catch let error as ParleyError where error.server?.status == 403 || error.server?.status == 404 {
            return nil
        }
    }

    /// Reads the group of `masterKey` from the server and records it here (the notice attributed to `author`), and a
    /// group the server no longer shows this account as left. An invitation is accepted first (this account presents
    /// its own profile key credential, which puts its profile key in the group) when `acceptInvitation` says so or the
    /// inviter is someone this account has written to; one from a stranger waits (``ParleyClient/acceptGroupInvitation(_:attempt:)``).
    /// Returns whether this account is a member (or invited) now.
    @discardableResult
    func refresh(masterKey: Data, author: String?, acceptInvitation: Bool = false) async throws -> Bool {
        let secret = try Self.secret(masterKey)
        let me = try database.read(LocalAccount.credentials).accountId
        guard var group = try await fetch(secret) else {
            let now = now()
            try await database.awaitableWrite { db in
                try ServerGroupRecorder.recordRemoval(masterKey: masterKey, localAccountId: me, now: now, db)
            }
            return false
        }
        let myId = try Self.userId(me, secret)
        let cipher = ClientZkGroupCipher(groupSecretParams: secret)
        let inviter = group.membersPendingProfileKey.first { $0.member.userID == myId }.flatMap { invitation in
            (try? UuidCiphertext(contents: invitation.addedByUserID)).flatMap { try? cipher.decrypt($0) }.map {
                $0.serviceIdString.lowercased()
            }
        }
        let trusted =
            try acceptInvitation || inviter.map { inviter in try database.read { try MessagesTable.hasWritten(to: inviter, $0) } } ?? false
        if group.membersPendingProfileKey.contains(where: { $0.member.userID == myId }), trusted,
            let entry = try await member(me, role: .default, secret: secret)
        {
            var actions = Signal_GroupChange.Actions()
            actions.version = try Self.next(group.version)
            actions.promoteMembersPendingProfileKey = [.with { $0.presentation = entry.presentation }]
            do {
                _ = try await api.modifyGroup(actions, authorization: try await authorization(secret))
            } catch let error as ParleyError where error.server?.status == 409 {
                // Another change came first: the invitation is accepted on the next refresh.
            }
            group = try await fetch(secret) ?? group
        }
        let now = now()
        let recorded = group
        return try await database.awaitableWrite { db in
            try ServerGroupRecorder.record(recorded, masterKey: masterKey, author: author ?? me, localAccountId: me, now: now, db)
            return recorded.members.contains { $0.userID == myId }
                || recorded.membersPendingProfileKey.contains { $0.member.userID == myId }
        }
    }

    // MARK: Changing

    /// Changes the server-stored group `groupId`: `build` writes the actions against the group as the server has it
    /// now (``ServerGroupChange``); the change is made for the next revision and made again, from the new state, when
    /// another change got there first. Records the result here; returns the server's signed change (what members are
    /// told) or `nil` when `build` made no change.
    func change(_ groupId: Data, _ build: (inout ServerGroupChange) async throws -> Void) async throws -> (
        signedChange: Data, revision: UInt32
    )? {
        let (masterKey, me) = try database.read { db -> (Data, String) in
            guard let group = try ConversationsTable.group(id: groupId, db), let masterKey = group.masterKey else {
                throw ParleyError.invalidArgument("no server-stored group \(GroupID(groupId))")
            }
            return (masterKey, try LocalAccount.credentials(db).accountId)
        }
        let secret = try Self.secret(masterKey)
        for attempt in 1...Self.changeAttempts {
            guard let current = try await fetch(secret) else {
                try await refresh(masterKey: masterKey, author: me)
                throw ParleyError.invalidArgument("this account is no longer a member of the group")
            }
            var change = ServerGroupChange(group: current, secret: secret, localAccountId: me, groups: self)
            try await build(&change)
            guard change.changesSomething else { return nil }
            change.actions.version = try Self.next(current.version)
            do {
                let response = try await api.modifyGroup(
                    change.actions, inviteLinkPassword: change.inviteLinkPassword, authorization: try await authorization(secret))
                try await refresh(masterKey: masterKey, author: me)
                return (try response.groupChange.serializedData(), change.actions.version)
            } catch let error as ParleyError where error.server?.status == 409 && attempt < Self.changeAttempts {
                continue
            }
        }
        return nil
    }

    /// Joins the group of `link` (or asks to, when the link needs an administrator's approval). Returns the
    /// conversation when this account became a member, `nil` when it is waiting for approval.
    func join(_ link: GroupInviteLink) async throws -> (conversationId: Int64?, signedChange: Data?, revision: UInt32) {
        let secret = try Self.secret(link.masterKey)
        let me = try database.read(LocalAccount.credentials).accountId
        for attempt in 1...Self.changeAttempts {
            let info = try await api.groupJoinInfo(password: link.password, authorization: try await authorization(secret))
            guard let entry = try await member(me, role: .default, secret: secret) else {
                throw ParleyError.invalidArgument("this account has no profile key yet: run `parley receive` once, then try again")
            }
            var actions = Signal_GroupChange.Actions()
            actions.version = try Self.next(info.version)
            if info.addFromInviteLink == .administrator {
                actions.addMembersPendingAdminApproval = [.with { $0.added.presentation = entry.presentation }]
            } else {
                actions.addMembers = [
                    .with {
                        $0.added = entry
                        $0.joinFromInviteLink = true
                    }
                ]
            }
            do {
                let response = try await api.modifyGroup(
                    actions, inviteLinkPassword: link.password, authorization: try await authorization(secret))
                let member = try await refresh(masterKey: link.masterKey, author: me)
                let conversation =
                    member
                    ? try database.read { db in
                        try ConversationsTable.group(id: try secret.getPublicParams().getGroupIdentifier().serialize(), db)?.conversationId
                    } : nil
                return (conversation, try response.groupChange.serializedData(), actions.version)
            } catch let error as ParleyError where error.server?.status == 409 && attempt < Self.changeAttempts {
                continue
            }
        }
        throw ParleyError.invalidArgument("the group kept changing while joining; try again")
    }

    /// The group `groupId` as this device last read it from the server.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` for a group that is not server-stored.
    func details(_ groupId: Data) throws -> ServerGroupDetails {
        try database.read { db in
            guard let group = try ConversationsTable.group(id: groupId, db), let masterKey = group.masterKey,
                let record = try ServerGroupsTable.record(conversationId: group.conversationId, db), let bytes = record.state,
                let state = try? Signal_Group(serializedBytes: bytes)
            else { throw ParleyError.invalidArgument("no server-stored group \(GroupID(groupId))") }
            let secret = try Self.secret(masterKey)
            let decrypted = ServerGroupRecorder.decrypt(state, secret: secret)
            let access: (Signal_AccessControl.AccessRequired) -> ServerGroupDetails.Access = { $0 == .administrator ? .admins : .members }
            let link: ServerGroupDetails.LinkAccess =
                switch state.accessControl.addFromInviteLink {
                case .any: .open
                case .administrator: .approval
                default: .off
                }
            return ServerGroupDetails(
                id: GroupID(groupId), revision: state.version, title: decrypted.title, groupDescription: decrypted.description,
                members: decrypted.members.map(\.accountId),
                administrators: decrypted.members.filter { $0.role == .administrator }.map(\.accountId), invited: decrypted.invited,
                requesting: decrypted.requesting, banned: decrypted.banned, addMembers: access(state.accessControl.members),
                editDetails: access(state.accessControl.attributes), sendMessages: state.announcementsOnly ? .admins : .members,
                link: link,
                inviteLink: link == .off || state.inviteLinkPassword.isEmpty
                    ? nil : GroupInviteLink(masterKey: masterKey, password: state.inviteLinkPassword).text)
        }
    }
}
