import Foundation

/// What any group change does to this device's copy of a group it knows, whoever keeps the group (its members, or the
/// server): the conversation's title, revision and whether this account is still in it; the member list Sender Keys
/// go to; on a removal, a new sender key for this device's next message and the removed members' keys forgotten; and
/// the words of the notice.
enum GroupRoster {
    /// Records `existing` becoming `title` with `members` at `revision`, made by `author`; returns the notice's text
    /// ("" when neither the title nor the members changed).
    static func record(
        _ existing: StoredGroup, title: String, members: [String], revision: UInt32, author: String, localAccountId: String,
        _ db: StorageTransaction
    ) throws -> String {
        let removed = Set(existing.members).subtracting(members)
        let added = Set(members).subtracting(existing.members)
        try ConversationsTable.updateGroup(
            conversationId: existing.conversationId, title: title, revision: revision, left: !members.contains(localAccountId), db)
        if !removed.isEmpty {
            // The removed cannot read on: this device's next group message starts a new sender key.
            try ConversationsTable.endDistribution(conversationId: existing.conversationId, db)
            try SenderKeySharesTable.forgetAll(conversationId: existing.conversationId, db)
            try SenderKeyChainsTable.forget(conversationId: existing.conversationId, members: removed, db)
        }
        try GroupMembersTable.replace(conversationId: existing.conversationId, with: members, db)
        if removed == [author], added.isEmpty { return "left the group" }
        if added == [author], removed.isEmpty { return "joined the group" }
        // Names as this device knows them when the change arrives (an unknown account by its id's start).
        func names(_ accounts: Set<String>) throws -> String {
            let known = try RecipientsTable.usernames(of: accounts, db)
            return accounts.sorted().map { known[$0] ?? String($0.prefix(8)) }.joined(separator: ", ")
        }
        return [
            existing.title != title ? "renamed to “\(title)”" : nil,
            added.isEmpty ? nil : "added \(try names(added))", removed.isEmpty ? nil : "removed \(try names(removed))",
        ]
        .compactMap { $0 }.joined(separator: ", ")
    }
}
