import Foundation
import GRDB

/// Applies a ``DataMessage`` to the client database — a new message, or an act on earlier ones (reaction, edit,
/// delete for everyone, disappearing-message timer) — for messages from others and for this account's own
/// messages sent from another device alike. The author rules are enforced here, on the receiving side, because
/// the sender's client cannot be trusted to keep them.
enum ConversationActions {
    /// How long after sending its author may edit or delete a message (Signal: 24 hours).
    static let authorWindowMilliseconds: UInt64 = 24 * 3600 * 1000

    /// What applying a message did.
    enum Result: Equatable {
        /// A new message row.
        case stored(Int64)
        /// Already applied (a repeated delivery).
        case duplicate
        /// An act on earlier messages was applied.
        case applied
        /// The act breaks a rule (not the author, too late, unknown target); nothing changed.
        case rejected(String)
    }

    /// Who sent a message, when, and in which conversation.
    struct Origin {
        /// The author's account.
        var author: String
        /// The author's device.
        var authorDevice: UInt32
        /// The author's timestamp for this message (its identity, with the author).
        var timestamp: UInt64
        /// When the server accepted it, if known.
        var serverTimestamp: UInt64?
        /// The conversation's other account.
        var peer: String
        /// Whether this account wrote it (here or on another device).
        var outgoing: Bool
        /// Status for a new row.
        var status: MessageStatus
        /// Local time now, milliseconds.
        var now: UInt64
        /// This account.
        var localAccountId: String = ""
    }

    static func apply(_ message: DataMessage, from origin: Origin, _ db: Database) throws -> Result {
        if let group = message.group, group.state != nil { return try GroupStore.applyChange(group, from: origin, db) }
        var groupThread: Int64?
        if let group = message.group {
            // Only a member may post or act in a group; a removed member's messages are refused.
            guard let known = try GroupStore.group(id: group.id, db), known.members.contains(origin.author) else {
                return .rejected("\(origin.author) is not a member of that group")
            }
            // Removed (or gone): what a sender who has not heard of it yet still sends here is not shown.
            guard !known.left else { return .rejected("this account is no longer a member of that group") }
            // A sender behind on the group's changes (a removal it has not heard of) is told the current state 1:1,
            // so that its next message goes only to the members.
            if !origin.outgoing, group.revision < known.revision, origin.author != origin.localAccountId {
                let current = GroupContext(id: group.id, revision: known.revision, state: GroupState(title: known.title, members: known.members))
                try JobQueue.enqueue(kind: "content", payload: MessageSender.ContentJob(
                    audience: .accounts([origin.author]), timestamp: origin.now, message: DataMessage(body: nil, group: current)), db, now: origin.now)
            }
            groupThread = known.threadId
        }
        if message.reaction != nil || message.deleteTarget != nil || message.editTarget != nil {
            // An act concerns a message of the conversation it arrives in, never one elsewhere.
            let conversation = try groupThread ?? ConversationStore.existingThread(with: origin.peer, db)
            guard let conversation else { return .rejected("no conversation with \(origin.peer)") }
            if let reaction = message.reaction { return try react(reaction, from: origin, in: conversation, db) }
            if let target = message.deleteTarget { return try delete(target, from: origin, in: conversation, db) }
            if let target = message.editTarget { return try edit(target, body: message.body, from: origin, in: conversation, db) }
        }
        let threadId = try groupThread ?? ConversationStore.thread(with: origin.peer, db, now: origin.now)
        // Only a timer change changes the conversation's timer (an older message's timer cannot undo a newer change).
        if message.isTimerUpdate {
            try db.execute(sql: "UPDATE threads SET expire_timer = ? WHERE id = ?", arguments: [Int64(message.expireTimer), threadId])
        }
        var row = NewMessage(threadId: threadId, outgoing: origin.outgoing, authorAccountId: origin.author,
                             authorDeviceId: origin.authorDevice, timestamp: origin.timestamp, serverTimestamp: origin.serverTimestamp,
                             body: message.isTimerUpdate ? nil : message.body, status: origin.status, replyToId: nil)
        row.kind = message.isTimerUpdate ? .timerChange : .message
        row.expireTimer = message.expireTimer
        // A message this account sent (from another device) starts its timer now; one received, when it is read.
        if origin.outgoing, message.expireTimer > 0, !message.isTimerUpdate {
            row.expireAt = origin.now + UInt64(message.expireTimer) * 1000
        }
        row.replyToId = try message.quote.flatMap { try ConversationStore.messageId(author: $0.authorAccountId, timestamp: $0.timestamp, db) }
        guard let id = try ConversationStore.insert(row, db) else { return .duplicate }
        for pointer in message.attachments {
            try db.execute(sql: """
                INSERT INTO attachments (message_id, server_id, keys, digest, size, content_type, file_name, state,
                                         duration_ms, waveform, voice_note)
                VALUES (?, ?, ?, ?, ?, ?, ?, 'remote', ?, ?, ?)
                """, arguments: [id, pointer.id, Data(base64Encoded: pointer.key), Data(base64Encoded: pointer.digest),
                                 pointer.size, pointer.contentType, pointer.fileName, pointer.durationMilliseconds.map { Int64($0) },
                                 pointer.waveform.isEmpty ? nil : Waveform.encode(pointer.waveform), pointer.voiceNote])
        }
        return .stored(id)
    }

    /// Sets, replaces or withdraws `origin.author`'s reaction on the target message. An older reaction never
    /// replaces a newer one (deliveries may arrive out of order).
    static func react(_ reaction: Reaction, from origin: Origin, in conversation: Int64, _ db: Database) throws -> Result {
        guard let target = try ConversationStore.messageId(author: reaction.targetAuthorAccountId, timestamp: reaction.targetTimestamp, db),
              try Bool.fetchOne(db, sql: "SELECT deleted = 0 AND kind = 'message' AND thread_id = ? FROM messages WHERE id = ?",
                                arguments: [conversation, target]) == true
        else { return .rejected("no message to react to in this conversation") }
        let current = try Int64.fetchOne(db, sql: "SELECT timestamp FROM reactions WHERE message_id = ? AND author_account_id = ?",
                                         arguments: [target, origin.author])
        if let current, UInt64(current) >= origin.timestamp { return .duplicate }
        // A withdrawn reaction stays as an empty row with its time, so an older reaction delivered later cannot return.
        try db.execute(sql: "INSERT OR REPLACE INTO reactions (message_id, author_account_id, emoji, timestamp) VALUES (?, ?, ?, ?)",
                       arguments: [target, origin.author, reaction.remove ? "" : reaction.emoji, Int64(origin.timestamp)])
        return .applied
    }

    /// Replaces the body of the author's own message, keeping the previous version in `message_edits`.
    static func edit(_ targetTimestamp: UInt64, body: String?, from origin: Origin, in conversation: Int64, _ db: Database) throws -> Result {
        guard let body, !body.isEmpty else { return .rejected("an edit needs the new text") }
        let target: Int64
        switch try authorsMessage(targetTimestamp, from: origin, in: conversation, db) {
        case .success(let id): target = id
        case .failure(let refusal): return .rejected(refusal.reason)
        }
        guard let row = try Row.fetchOne(db, sql: "SELECT body, timestamp, edited_at FROM messages WHERE id = ?", arguments: [target]) else {
            return .rejected("no such message")
        }
        let lastChange = UInt64((row["edited_at"] as Int64?) ?? (row["timestamp"] as Int64))
        guard origin.timestamp > lastChange else { return .duplicate }
        try db.execute(sql: "INSERT OR IGNORE INTO message_edits (message_id, timestamp, body) VALUES (?, ?, ?)",
                       arguments: [target, Int64(lastChange), row["body"] as String?])
        try db.execute(sql: "UPDATE messages SET body = ?, edited_at = ? WHERE id = ?", arguments: [body, Int64(origin.timestamp), target])
        return .applied
    }

    /// Delete for everyone: the message becomes a tombstone and its content — text, earlier versions, reactions,
    /// attachments and their downloaded files — is erased from this database, not hidden.
    static func delete(_ targetTimestamp: UInt64, from origin: Origin, in conversation: Int64, _ db: Database) throws -> Result {
        switch try authorsMessage(targetTimestamp, from: origin, in: conversation, db) {
        case .success(let id):
            try erase(id, db)
            try db.execute(sql: "UPDATE messages SET body = NULL, deleted = 1, edited_at = NULL WHERE id = ?", arguments: [id])
            return .applied
        case .failure(let refusal):
            return .rejected(refusal.reason)
        }
    }

    /// Removes everything a message carries besides its row: earlier versions, reactions, receipts, attachments
    /// (files Parley downloaded included; a sender's original files are the user's and stay).
    static func erase(_ messageId: Int64, _ db: Database) throws {
        // The copies kept for a resend hold the content too: the message's, and each of its edits' (logged under the
        // edit's own timestamp: the later entries of message_edits, and edited_at for the last).
        if let row = try Row.fetchOne(db, sql: "SELECT timestamp, edited_at FROM messages WHERE id = ? AND outgoing = 1", arguments: [messageId]) {
            var timestamps = [row["timestamp"] as Int64] + [row["edited_at"] as Int64?].compactMap { $0 }
            timestamps += try Int64.fetchAll(db, sql: "SELECT timestamp FROM message_edits WHERE message_id = ?", arguments: [messageId])
            for timestamp in Set(timestamps) { try MessageSendLog.forget(timestamp: UInt64(timestamp), db) }
        }
        let downloaded = try String.fetchAll(db, sql: "SELECT local_path FROM attachments WHERE message_id = ? AND state = 'downloaded' AND local_path IS NOT NULL",
                                             arguments: [messageId])
        for path in downloaded { try? FileManager.default.removeItem(atPath: path) }
        try db.execute(sql: "DELETE FROM attachments WHERE message_id = ?", arguments: [messageId])
        try db.execute(sql: "DELETE FROM message_edits WHERE message_id = ?", arguments: [messageId])
        try db.execute(sql: "DELETE FROM reactions WHERE message_id = ?", arguments: [messageId])
        try db.execute(sql: "DELETE FROM receipts WHERE message_id = ?", arguments: [messageId])
    }

    struct Refusal: Error { let reason: String }

    /// The local id of `origin.author`'s message sent at `targetTimestamp`, if the author may still change it.
    private static func authorsMessage(_ targetTimestamp: UInt64, from origin: Origin, in conversation: Int64,
                                       _ db: Database) throws -> Swift.Result<Int64, Refusal> {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT id, kind, deleted FROM messages WHERE author_account_id = ? AND timestamp = ? AND thread_id = ?
            """, arguments: [origin.author, Int64(targetTimestamp), conversation])
        else {
            return .failure(Refusal(reason: "no message of \(origin.author) sent at \(targetTimestamp) in this conversation: only its author may change a message"))
        }
        guard row["kind"] as String == MessageKind.message.rawValue, !(row["deleted"] as Bool) else {
            return .failure(Refusal(reason: "message \(targetTimestamp) was deleted or is not a text message"))
        }
        let actedAt = origin.serverTimestamp ?? origin.timestamp
        guard actedAt >= targetTimestamp, actedAt - targetTimestamp <= authorWindowMilliseconds else {
            return .failure(Refusal(reason: "messages can be changed only within 24 hours of sending"))
        }
        return .success(row["id"])
    }
}

extension Int64 {
    /// The value as a `UInt32`, clamped.
    var clampedUInt32: UInt32 { UInt32(clamping: self) }
}
