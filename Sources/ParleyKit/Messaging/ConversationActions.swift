import Foundation

/// Applies a ``DataMessage`` to the client database — a new message, or an act on earlier ones (reaction, edit,
/// delete for everyone, disappearing-message timer) — for messages from others and for this account's own
/// messages sent from another device alike. The author rules are enforced here, on the receiving side, because
/// the sender's client cannot be trusted to keep them.
enum ConversationActions {
    /// How long after sending its author may edit or delete a message (Signal: 24 hours).
    static let authorWindowMilliseconds: UInt64 = 24 * 3600 * 1000
    /// Edits one message may have: each keeps the text it replaces (up to 64 KiB), so an author cannot make a receiver
    /// store an unbounded history.
    static let maximumEdits = 10

    /// What applying a message did.
    enum Result: Equatable {
        /// A new message row.
        case stored(Int64)
        /// Already applied (a repeated delivery).
        case duplicate
        /// An act on earlier messages was applied.
        case applied
        /// An act on a message that has not arrived, or could not be decrypted yet: kept, and applied when it comes
        /// (``EarlyActsTable``).
        case held
        /// The act breaks a rule (not the author, too late, unknown target); nothing changed.
        case rejected(String)
    }

    /// Who made a message or act, and when (``MessageOrigin``, kept with held acts in Storage).
    typealias Origin = MessageOrigin
    /// Where a message comes from (``MessageArrival``).
    typealias Arrival = MessageArrival

    static func apply(_ message: DataMessage, from origin: Origin, _ db: StorageTransaction) throws -> Result {
        var released = ReleasedActs()
        return try apply(message, from: origin, db, released: &released)
    }

    /// The acts that waited for a message and applied when it was stored.
    struct ReleasedActs: Sendable {
        /// Those front doors tell their clients of, as if each had just arrived (they heard nothing while it was
        /// held): a peer's — this account's own acts, synced from its other devices, are not reported when they apply
        /// at once either. When one deleted the message for everyone, only that one: what the others did went with it.
        var reported: [AppliedAct] = []
        /// Whether one deleted the message for everyone (its content was erased).
        var deletedMessage = false
    }

    /// Applies `message`; the acts that waited for it and now applied are added to `released`.
    static func apply(_ message: DataMessage, from origin: Origin, _ db: StorageTransaction, released: inout ReleasedActs) throws -> Result
    {
        // A message is one row per author, device and timestamp. Another with the same is a repeat — or a sender
        // reusing a timestamp to change the group or the timer with no notice shown — and changes nothing.
        // An act (reaction, edit, delete) names the message it concerns; anything else is a message of its own.
        let actTarget = Self.target(of: message, from: origin)
        if actTarget == nil,
            try MessagesTable.exists(author: origin.author, device: origin.authorDevice, timestamp: origin.timestamp, db)
        {
            return .duplicate
        }
        if let group = message.group, group.isServerStored {
            // A server-stored group this device is behind on, or does not know: the transaction stops, the group is read
            // from the server (the receiver does that), and the message is applied again.
            let known = try ConversationsTable.group(id: group.id, db)
            if origin.mayFetchGroup == true, let masterKey = group.masterKey, known.map({ group.revision > $0.revision }) ?? true {
                throw ServerGroupRefreshNeeded(masterKey: masterKey, author: origin.author)
            }
            guard let known else { return .rejected("a server-stored group this account is not in") }
            // A notice of a change: reading the group recorded it.
            if message.isServerGroupNotice { return .applied }
            // In an announcements group only administrators post (reactions stay open to every member, as in Signal).
            if known.announcementsOnly, message.reaction == nil, !known.administrators.contains(origin.author) {
                return .rejected("only administrators send messages in “\(known.title)”")
            }
        } else if let group = message.group, group.state != nil {
            return try GroupChanges.apply(group, from: origin, db)
        }
        var groupConversation: Int64?
        var groupMembers: [String]?
        if let group = message.group {
            // Only a member may post or act in a group; a removed member's messages are refused.
            guard let known = try ConversationsTable.group(id: group.id, db), known.members.contains(origin.author) else {
                return .rejected("\(origin.author) is not a member of that group")
            }
            // Removed (or gone): what a sender who has not heard of it yet still sends here is not shown.
            guard !known.left else { return .rejected("this account is no longer a member of that group") }
            // A sender behind on the group's changes (a removal it has not heard of) is told the current state 1:1,
            // so that its next message goes only to the members (once: not again when a held act of its is released).
            if !origin.outgoing, origin.arrival != .released, group.revision < known.revision, origin.author != origin.localAccountId,
                !group.isServerStored
            {
                let current = GroupContext(
                    id: group.id, revision: known.revision, state: GroupState(title: known.title, members: known.members))
                try JobQueue.enqueue(
                    .content(
                        MessageSender.ContentJob(
                            audience: .accounts([origin.author]), timestamp: origin.now, message: DataMessage(body: nil, group: current))),
                    now: origin.now, db)
            }
            groupConversation = known.conversationId
            groupMembers = known.members
        }
        if let target = actTarget {
            // An act concerns a message of the conversation it arrives in, never one elsewhere.
            let conversation = try groupConversation ?? ConversationsTable.id(with: origin.peer, db)
            if origin.arrival == .received,
                try Self.mayStillCome(target, for: message, in: conversation, groupMembers: groupMembers, from: origin, db)
            {
                // No longer than the conversation's disappearing messages live: an edit's text is content too.
                let timer = try conversation.map { UInt64(try ConversationsTable.expireTimer(conversationId: $0, db)) * 1000 } ?? 0
                let act = EarlyActsTable.HeldAct(message, from: origin)
                switch try EarlyActsTable.hold(
                    act, targetAuthor: target.author, targetTimestamp: target.timestamp,
                    keepFor: timer > 0 ? timer : EarlyActsTable.lifetimeMilliseconds, db)
                {
                case .held: return .held
                case .superseded: return .duplicate
                case .turnedAway:
                    return .rejected("\(EarlyActsTable.maximumReactionsPerMessage) reactions already wait for message \(target.timestamp)")
                }
            }
            guard let conversation else { return .rejected("no conversation with \(origin.peer)") }
            if let reaction = message.reaction { return try react(reaction, from: origin, in: conversation, db) }
            if let target = message.deleteTarget { return try delete(target, from: origin, in: conversation, db) }
            if let target = message.editTarget {
                return try edit(target, body: message.body, mentions: message.mentions, from: origin, in: conversation, db)
            }
        }
        let conversationId = try groupConversation ?? ConversationsTable.oneToOne(with: origin.peer, now: origin.now, db)
        // Only a timer change changes the conversation's timer (an older message's timer cannot undo a newer change).
        if message.isTimerUpdate {
            try ConversationsTable.setExpireTimer(message.expireTimer, conversationId: conversationId, db)
        }
        var row = NewMessage(
            conversationId: conversationId, outgoing: origin.outgoing, authorAccountId: origin.author,
            authorDeviceId: origin.authorDevice, timestamp: origin.timestamp, serverTimestamp: origin.serverTimestamp,
            body: message.isTimerUpdate ? nil : message.body, status: origin.status, replyToId: nil)
        row.kind = message.isTimerUpdate ? .timerChange : .message
        row.mentions = message.isTimerUpdate ? [] : message.mentions
        row.expireTimer = message.expireTimer
        // A quote names a message of this conversation; one elsewhere is not linked (its text is not shown here).
        row.replyToId = try message.quote.flatMap {
            try MessagesTable.id(author: $0.authorAccountId, timestamp: $0.timestamp, in: conversationId, db)
        }
        guard let id = try MessagesTable.insert(row, db) else { return .duplicate }
        // A message this account sent (from another device) starts its timer now; one received, when it is read.
        if origin.outgoing, !message.isTimerUpdate { try MessagesTable.startTimer(messageId: id, now: origin.now, db) }
        for pointer in message.attachments { try AttachmentsTable.insertIncoming(pointer, messageId: id, db) }
        // The acts that arrived first. Each is applied as if it came now; what it still cannot act on is refused.
        var reported: [AppliedAct] = []
        for held in try EarlyActsTable.take(targetAuthor: origin.author, targetTimestamp: origin.timestamp, now: origin.now, db) {
            var again = held.origin
            again.arrival = .released
            guard try apply(held.message, from: again, db) == .applied, let kind = AppliedAct.Kind(held.message) else { continue }
            if case .deleteForEveryone = kind { released.deletedMessage = true }
            if !again.outgoing {
                reported.append(
                    AppliedAct(
                        authorAccountId: again.author, authorDeviceId: again.authorDevice, timestamp: again.timestamp,
                        groupId: held.message.group?.id, kind: kind))
            }
        }
        if released.deletedMessage { reported.removeAll { if case .deleteForEveryone = $0.kind { false } else { true } } }
        released.reported += reported
        return .stored(id)
    }

    /// Whether the message an act concerns may still come to `conversation` (`nil`: a 1:1 conversation not started
    /// yet; `groupMembers` `nil`: a 1:1 conversation). Not when it is here, or anywhere else, already (the act applies,
    /// or is refused as one on another conversation's message): only its undecryptable copy may be. Only a message
    /// the conversation can hold — a member's, in a 1:1 the peer's or this account's. And an edit or delete naming the
    /// time of another author's message there is someone trying to change what is not theirs: refused, not held.
    private static func mayStillCome(
        _ target: (author: String, timestamp: UInt64), for message: DataMessage, in conversation: Int64?,
        groupMembers: [String]?, from origin: Origin, _ db: StorageTransaction
    ) throws -> Bool {
        guard try !MessagesTable.hasReadable(author: target.author, timestamp: target.timestamp, db) else { return false }
        let possibleAuthors = groupMembers ?? [origin.peer]
        guard target.author == origin.localAccountId || possibleAuthors.contains(target.author) else { return false }
        guard let conversation, message.reaction == nil else { return true }
        return try !MessagesTable.hasMessage(at: target.timestamp, in: conversation, notBy: target.author, db)
    }

    /// The message an edit, delete or reaction concerns: the reaction's target, or the author's own message.
    static func target(of message: DataMessage, from origin: Origin) -> (author: String, timestamp: UInt64)? {
        if let reaction = message.reaction { return (reaction.targetAuthorAccountId, reaction.targetTimestamp) }
        if let timestamp = message.deleteTarget ?? message.editTarget { return (origin.author, timestamp) }
        return nil
    }

    /// Sets, replaces or withdraws `origin.author`'s reaction on the target message. An older reaction never
    /// replaces a newer one (deliveries may arrive out of order).
    static func react(_ reaction: Reaction, from origin: Origin, in conversation: Int64, _ db: StorageTransaction) throws -> Result {
        guard
            let target = try MessagesTable.id(
                author: reaction.targetAuthorAccountId, timestamp: reaction.targetTimestamp, in: conversation, db),
            try MessagesTable.isReactable(target, conversationId: conversation, db)
        else { return .rejected("no message to react to in this conversation") }
        if let current = try ReactionsTable.timestamp(of: origin.author, on: target, db), current >= origin.timestamp { return .duplicate }
        // A withdrawn reaction stays as an empty row with its time, so an older reaction delivered later cannot return.
        try ReactionsTable.set(reaction.remove ? "" : reaction.emoji, by: origin.author, on: target, at: origin.timestamp, db)
        return .applied
    }

    /// Replaces the body (and what it mentions) of the author's own message, keeping the previous text in `message_edits`.
    static func edit(
        _ targetTimestamp: UInt64, body: String?, mentions: [Mention], from origin: Origin, in conversation: Int64, _ db: StorageTransaction
    ) throws -> Result {
        guard let body, !body.isEmpty else { return .rejected("an edit needs the new text") }
        let target: Int64
        switch try authorsMessage(targetTimestamp, from: origin, in: conversation, db) {
        case .success(let id): target = id
        case .failure(let refusal): return .rejected(refusal.reason)
        }
        guard let current = try MessagesTable.currentVersion(target, db) else { return .rejected("no such message") }
        guard origin.timestamp > current.changedAt else { return .duplicate }
        guard try MessageEditsTable.count(of: target, db) < Self.maximumEdits else {
            return .rejected("a message is edited at most \(Self.maximumEdits) times")
        }
        try MessageEditsTable.keep(current.body, of: target, until: current.changedAt, db)
        try MessagesTable.replaceBody(target, with: body, mentions: mentions, editedAt: origin.timestamp, db)
        return .applied
    }

    /// Delete for everyone: the message becomes a tombstone and its content — text, earlier versions, reactions,
    /// attachments and their downloaded files — is erased from this database, not hidden.
    static func delete(_ targetTimestamp: UInt64, from origin: Origin, in conversation: Int64, _ db: StorageTransaction) throws -> Result {
        switch try authorsMessage(targetTimestamp, from: origin, in: conversation, db) {
        case .success(let id):
            try erase(id, db)
            try MessagesTable.makeTombstone(id, db)
            return .applied
        case .failure(let refusal):
            return .rejected(refusal.reason)
        }
    }

    /// Removes everything a message carries besides its row: earlier versions, reactions, receipts, attachments
    /// (files Parley downloaded included; a sender's original files are the user's and stay).
    static func erase(_ messageId: Int64, _ db: StorageTransaction) throws {
        // The copies kept for a resend hold the content too: the message's, and each of its edits' (logged under the
        // edit's own timestamp: the later entries of message_edits, and edited_at for the last).
        let sent = try MessagesTable.sentTimestamps(messageId, db)
        if !sent.isEmpty {
            for timestamp in Set(sent + (try MessageEditsTable.timestamps(of: messageId, db))) {
                try MessageSendLog.forget(timestamp: timestamp, db)
            }
        }
        for path in try AttachmentsTable.downloadedFiles(of: messageId, db) { try? FileManager.default.removeItem(atPath: path) }
        try AttachmentsTable.delete(of: messageId, db)
        try MessageEditsTable.delete(of: messageId, db)
        try ReactionsTable.delete(on: messageId, db)
        try ReceiptsTable.delete(of: messageId, db)
    }

    struct Refusal: Error { let reason: String }

    /// The local id of `origin.author`'s message sent at `targetTimestamp`, if the author may still change it.
    private static func authorsMessage(
        _ targetTimestamp: UInt64, from origin: Origin, in conversation: Int64,
        _ db: StorageTransaction
    ) throws -> Swift.Result<Int64, Refusal> {
        guard let message = try MessagesTable.authored(by: origin.author, timestamp: targetTimestamp, conversationId: conversation, db)
        else {
            return .failure(
                Refusal(
                    reason:
                        "no message of \(origin.author) sent at \(targetTimestamp) in this conversation: only its author may change a message"
                ))
        }
        guard message.changeable else {
            return .failure(Refusal(reason: "message \(targetTimestamp) was deleted or is not a text message"))
        }
        let actedAt = origin.serverTimestamp ?? origin.timestamp
        guard actedAt >= targetTimestamp, actedAt - targetTimestamp <= authorWindowMilliseconds else {
            return .failure(Refusal(reason: "messages can be changed only within 24 hours of sending"))
        }
        return .success(message.id)
    }
}

extension Int64 {
    /// The value as a `UInt32`, clamped.
    var clampedUInt32: UInt32 { UInt32(clamping: self) }
}
