import Foundation

/// Changes to groups: a group is a thread with a `group_id`, its members (``GroupMembersTable``), a revision that
/// orders changes, and this device's current sender-key distribution (``ConversationsTable``). Changes arrive as messages (any member may change
/// the group, as in Signal's client-managed groups); removing a member makes every remaining member's device
/// start a new distribution, so the removed member cannot read what follows.
enum GroupChanges {
    /// How far past the known revision a change may jump. Changes can arrive out of order (a later one first), but no
    /// honest group has this many in flight; a member jumping further (toward the last revision, after which nobody could
    /// change the group again) is refused.
    static let maximumRevisionStep: UInt32 = 1000
    /// The highest revision a group this device first hears of may have. A member starting a group at the last
    /// revision would leave no change to follow — not its own removal, nor anyone leaving; from here, more than two
    /// million of the largest steps remain.
    static let maximumFirstRevision: UInt32 = 1 << 31

    /// Applies a change of title or members from `origin.author`: a group this account is added to appears; in a
    /// known group only a member may change it, and only to a newer revision. Records a notice in the conversation.
    static func apply(_ context: GroupContext, from origin: ConversationActions.Origin, _ db: StorageTransaction) throws
        -> ConversationActions.Result
    {
        guard let state = context.state else { return .rejected("not a group change") }
        // A placeholder is this device's name for a conversation waiting for a username lookup: a member added by that
        // name would take the conversation's place, and the messages written to it would never go out. (One already in
        // a group, from before this check, does not stop changes that keep or remove it.)
        let present = Set(try ConversationsTable.group(id: context.id, db)?.members ?? [])
        guard !state.members.contains(where: { PendingRecipients.isPlaceholder($0) && !present.contains($0) }) else {
            return .rejected("a member id that is no account id")
        }
        let conversationId: Int64
        var description: String
        if let existing = try ConversationsTable.group(id: context.id, db) {
            guard existing.members.contains(origin.author) else { return .rejected("only a member may change the group") }
            guard context.revision > existing.revision else { return .duplicate }
            guard context.revision - existing.revision <= Self.maximumRevisionStep else {
                return .rejected("a change to revision \(context.revision) of a group at \(existing.revision)")
            }
            conversationId = existing.conversationId
            description = try GroupRoster.record(
                existing, title: state.title, members: state.members, revision: context.revision, author: origin.author,
                localAccountId: origin.localAccountId, db)
        } else {
            guard state.members.contains(origin.author), state.members.contains(origin.localAccountId) else {
                return .rejected("a group this account is not in, or whose sender is not a member")
            }
            guard context.revision <= Self.maximumFirstRevision else {
                return .rejected("a group first heard of at revision \(context.revision), past \(Self.maximumFirstRevision)")
            }
            conversationId = try ConversationsTable.insertGroup(
                id: context.id, title: state.title, revision: context.revision, now: origin.now, db)
            try GroupMembersTable.replace(conversationId: conversationId, with: state.members, db)
            description = "created “\(state.title)” with \(state.members.count) members"
        }
        var notice = NewMessage(
            conversationId: conversationId, outgoing: origin.outgoing, authorAccountId: origin.author, authorDeviceId: origin.authorDevice,
            timestamp: origin.timestamp, serverTimestamp: origin.serverTimestamp, body: description, status: origin.status,
            replyToId: nil)
        notice.kind = .groupChange
        return try MessagesTable.insert(notice, db).map { .stored($0) } ?? .duplicate
    }
}
