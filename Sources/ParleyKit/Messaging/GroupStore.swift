import Foundation
import GRDB

/// Groups in the client database: a group is a thread with a `group_id`, its members, a revision that orders
/// changes, and this device's current sender-key distribution. Changes arrive as messages (any member may change
/// the group, as in Signal's client-managed groups); removing a member makes every remaining member's device
/// start a new distribution, so the removed member cannot read what follows.
enum GroupStore {
    /// One group as stored.
    struct Group: Sendable {
        let threadId: Int64
        let id: Data
        let title: String
        let revision: UInt32
        let members: [String]
        let left: Bool
    }

    static func group(id: Data, _ db: Database) throws -> Group? {
        try Row.fetchOne(db, sql: "SELECT id FROM threads WHERE group_id = ?", arguments: [id]).flatMap { try group(threadId: $0[0], db) }
    }

    static func group(threadId: Int64, _ db: Database) throws -> Group? {
        guard let row = try Row.fetchOne(db, sql: "SELECT group_id, title, group_revision, left_group FROM threads WHERE id = ? AND group_id IS NOT NULL",
                                         arguments: [threadId])
        else { return nil }
        let members = try String.fetchAll(db, sql: "SELECT account_id FROM group_members WHERE thread_id = ? ORDER BY account_id",
                                          arguments: [threadId])
        return Group(threadId: threadId, id: row[0], title: row[1] ?? "", revision: (row[2] as Int64).clampedUInt32, members: members,
                     left: row[3])
    }

    /// This device's distribution in the group, started now when there is none (new group, or after a removal).
    static func currentDistribution(threadId: Int64, _ db: Database) throws -> UUID {
        if let text = try String.fetchOne(db, sql: "SELECT distribution_id FROM threads WHERE id = ?", arguments: [threadId]),
           let existing = UUID(uuidString: text) {
            return existing
        }
        let fresh = UUID()
        try db.execute(sql: "UPDATE threads SET distribution_id = ? WHERE id = ?", arguments: [fresh.uuidString.lowercased(), threadId])
        return fresh
    }

    /// Applies a change of title or members from `origin.author`: a group this account is added to appears; in a
    /// known group only a member may change it, and only to a newer revision. Records a notice in the conversation.
    static func applyChange(_ context: GroupContext, from origin: ConversationActions.Origin, _ db: Database) throws -> ConversationActions.Result {
        guard let state = context.state else { return .rejected("not a group change") }
        let now = Int64(origin.now)
        let threadId: Int64
        var description: String
        if let existing = try group(id: context.id, db) {
            guard existing.members.contains(origin.author) else { return .rejected("only a member may change the group") }
            guard context.revision > existing.revision else { return .duplicate }
            threadId = existing.threadId
            let removed = Set(existing.members).subtracting(state.members), added = Set(state.members).subtracting(existing.members)
            try db.execute(sql: "UPDATE threads SET title = ?, group_revision = ?, left_group = ? WHERE id = ?",
                           arguments: [state.title, Int64(context.revision), !state.members.contains(origin.localAccountId), threadId])
            if !removed.isEmpty {
                // The removed cannot read on: this device's next group message starts a new sender key.
                try db.execute(sql: "UPDATE threads SET distribution_id = NULL WHERE id = ?", arguments: [threadId])
                try db.execute(sql: "DELETE FROM sender_key_shared WHERE thread_id = ?", arguments: [threadId])
                try db.execute(sql: "DELETE FROM sender_key_chains WHERE thread_id = ? AND account_id IN (\(removed.map { _ in "?" }.joined(separator: ",")))",
                               arguments: StatementArguments([threadId] + removed.map { $0 as any DatabaseValueConvertible }))
            }
            // Names as this device knows them when the change arrives (an unknown account by its id's start).
            func names(_ accounts: Set<String>) throws -> String {
                let known = try ConversationStore.usernames(of: accounts, db)
                return accounts.sorted().map { known[$0] ?? String($0.prefix(8)) }.joined(separator: ", ")
            }
            description = [existing.title != state.title ? "renamed to “\(state.title)”" : nil,
                           added.isEmpty ? nil : "added \(try names(added))", removed.isEmpty ? nil : "removed \(try names(removed))"]
                .compactMap { $0 }.joined(separator: ", ")
            if removed == [origin.author], added.isEmpty { description = "left the group" }
        } else {
            guard state.members.contains(origin.author), state.members.contains(origin.localAccountId) else {
                return .rejected("a group this account is not in, or whose sender is not a member")
            }
            try db.execute(sql: "INSERT INTO threads (group_id, title, updated, group_revision) VALUES (?, ?, ?, ?)",
                           arguments: [context.id, state.title, now, Int64(context.revision)])
            threadId = db.lastInsertedRowID
            description = "created “\(state.title)” with \(state.members.count) members"
        }
        try db.execute(sql: "DELETE FROM group_members WHERE thread_id = ?", arguments: [threadId])
        for member in state.members {
            try db.execute(sql: "INSERT INTO group_members (thread_id, account_id) VALUES (?, ?)", arguments: [threadId, member])
            try db.execute(sql: "INSERT OR IGNORE INTO recipients (account_id) VALUES (?)", arguments: [member])
        }
        var notice = NewMessage(threadId: threadId, outgoing: origin.outgoing, authorAccountId: origin.author, authorDeviceId: origin.authorDevice,
                                timestamp: origin.timestamp, serverTimestamp: origin.serverTimestamp, body: description, status: origin.status,
                                replyToId: nil)
        notice.kind = .groupChange
        return try ConversationStore.insert(notice, db).map { .stored($0) } ?? .duplicate
    }
}
