import Foundation
import ParleyAPI
import ParleyProtocol
import SwiftProtobuf

/// Writes a server-stored group as the server answered it into this device's database: the conversation (title,
/// revision, whether this account is in it), its members and invited people by account id — the list Sender Keys go
/// to — and a notice of what changed. A member removed ends this device's sender-key distribution, as in a client-managed group.
enum ServerGroupRecorder {
    /// The group's state, decrypted.
    struct Decrypted {
        var title: String
        let description: String
        var members: [(accountId: String, role: Signal_Member.Role)]
        var invited: [String]
        var requesting: [String]
        var banned: [String]
    }

    /// `group` decrypted with `secret`: ciphertexts that do not decrypt (another group's, or damaged) are left out.
    static func decrypt(_ group: Signal_Group, secret: GroupSecretParams) -> Decrypted {
        let cipher = ClientZkGroupCipher(groupSecretParams: secret)
        func account(_ userId: Data) -> String? {
            guard let ciphertext = try? UuidCiphertext(contents: userId), let serviceId = try? cipher.decrypt(ciphertext),
                serviceId.kind == .aci
            else { return nil }
            return serviceId.serviceIdString.lowercased()
        }
        func text(_ blob: Data, _ pick: (Signal_GroupAttributeBlob) -> String?) -> String {
            guard !blob.isEmpty, let plain = try? cipher.decryptBlob(blobCiphertext: blob),
                let attribute = try? Signal_GroupAttributeBlob(serializedBytes: plain)
            else { return "" }
            return pick(attribute) ?? ""
        }
        return Decrypted(
            title: text(group.title) { if case .title(let title) = $0.content { title } else { nil } },
            description: text(group.description_p) { if case .descriptionText(let text) = $0.content { text } else { nil } },
            members: group.members.compactMap { member in account(member.userID).map { ($0, member.role) } },
            invited: group.membersPendingProfileKey.compactMap { account($0.member.userID) },
            requesting: group.membersPendingAdminApproval.compactMap { account($0.userID) },
            banned: group.membersBanned.compactMap { account($0.userID) })
    }

    /// Records `group` (as the server answered it, for the group of `masterKey`), attributing the notice to `author`.
    /// Returns the conversation, or `nil` when this device did not know the group and this account is not in it.
    @discardableResult
    static func record(
        _ group: Signal_Group, masterKey: Data, author: String, localAccountId: String, now: UInt64, _ db: StorageTransaction
    ) throws -> Int64? {
        let secret = try ServerGroups.secret(masterKey)
        let id = try secret.getPublicParams().getGroupIdentifier().serialize()
        let state = decrypt(group, secret: secret)
        // The audience messages go to: members and the invited (Parley's clients accept an invitation as soon as
        // they hear of the group, so a message sent meanwhile is not lost to them).
        let members =
            state.members.map(\.accountId) + state.invited.filter { invited in !state.members.contains { $0.accountId == invited } }
        let isMember = members.contains(localAccountId)
        let title = Self.truncated(state.title, toBytes: GroupContext.maximumTitleBytes)
        let conversationId: Int64
        let description: String
        if let existing = try ConversationsTable.group(id: id, db) {
            conversationId = existing.conversationId
            if group.version < existing.revision { return conversationId }
            description = try GroupRoster.record(
                existing, title: title, members: members, revision: group.version, author: author, localAccountId: localAccountId, db)
        } else {
            guard isMember || state.invited.contains(localAccountId) else { return nil }
            conversationId = try ConversationsTable.insertGroup(id: id, title: title, revision: group.version, now: now, db)
            try ConversationsTable.updateGroup(conversationId: conversationId, title: title, revision: group.version, left: !isMember, db)
            try GroupMembersTable.replace(conversationId: conversationId, with: members, db)
            description = "created “\(title)” with \(members.count) member\(members.count == 1 ? "" : "s")"
        }
        try ServerGroupsTable.store(
            conversationId: conversationId, masterKey: masterKey, state: try group.serializedData(),
            announcementsOnly: group.announcementsOnly,
            administrators: state.members.filter { $0.role == .administrator }.map(\.accountId), db)
        // Those asking to join or banned are named like correspondents (for the lists that show them).
        for accountId in state.requesting + state.banned { try RecipientsTable.ensure(accountId, db) }
        if !description.isEmpty {
            try notice(description, in: conversationId, author: author, localAccountId: localAccountId, now: now, db)
        }
        return conversationId
    }

    /// `text` cut to at most `limit` UTF-8 bytes, at a character boundary.
    static func truncated(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        for character in text {
            guard result.utf8.count + character.utf8.count <= limit else { break }
            result.append(character)
        }
        return result
    }

    /// Records that the server no longer lets this account read group `masterKey`'s (removed, or it never was in it).
    static func recordRemoval(masterKey: Data, localAccountId: String, now: UInt64, _ db: StorageTransaction) throws {
        let id = try ServerGroups.secret(masterKey).getPublicParams().getGroupIdentifier().serialize()
        guard let existing = try ConversationsTable.group(id: id, db), !existing.left else { return }
        try ConversationsTable.updateGroup(
            conversationId: existing.conversationId, title: existing.title, revision: existing.revision, left: true, db)
        try notice(
            "this account is no longer a member", in: existing.conversationId, author: localAccountId, localAccountId: localAccountId,
            now: now, db)
    }

    private static func notice(
        _ text: String, in conversationId: Int64, author: String, localAccountId: String, now: UInt64, _ db: StorageTransaction
    ) throws {
        var notice = NewMessage(
            conversationId: conversationId, outgoing: author == localAccountId, authorAccountId: author, authorDeviceId: 0,
            timestamp: now, serverTimestamp: nil, body: text, status: author == localAccountId ? .sent : .received, replyToId: nil)
        notice.kind = .groupChange
        _ = try MessagesTable.insert(notice, db)
    }
}
