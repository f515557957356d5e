import Foundation
import ParleyKit

/// signal-cli's sending methods: `send` (and its edits), `sendReaction`, `remoteDelete`, `sendReceipt`, `sendTyping`.
extension SignalCLIMethods {
    /// Most recipients one call names (`send`, `sendTyping`, `getUserStatus`…: each is looked up, and gets a message).
    static let maximumRecipients = 1_000
    /// Most messages one `sendReceipt` names (each is looked up).
    static let maximumTargets = 1_000

    func send(_ p: SendParameters) async throws -> JSONValue {
        let recipients = p.people
        let groups = try groups(p.groupIds)
        let text = p.message ?? ""
        let mentions = try await mentions(p.mentions)
        if let target = p.editTimestamp {
            let own = try ownMessage(sentAt: target)
            let accountIds = try await resolve(recipients)
            return try await delivered(
                try await client.edit(own.id, body: text, mentions: mentions, attempt: .dueJobs), to: accountIds, groups: groups)
        }
        guard !recipients.isEmpty || !groups.isEmpty else { throw JSONRPCError.userError("No recipients given") }
        try Self.refuseLeft(groups)
        let attachments = p.attachments
        guard attachments.count <= MessageContent.maximumAttachments else {
            throw JSONRPCError.userError("At most \(MessageContent.maximumAttachments) attachments per message")
        }
        guard !text.isEmpty || !attachments.isEmpty else {
            throw JSONRPCError.userError("Sending empty message is not allowed, no message, attachments or sticker given.")
        }
        var replyTo: Int64?
        if let quoted = p.quoteTimestamp {
            guard let author = p.quoteAuthor else { throw JSONRPCError.userError("Quote author parameter is missing") }
            let authorId = try await SignalCLIAddress.resolve(author, with: client)
            guard let message = try client.message(author: authorId, timestamp: try Self.timestamp(quoted)) else {
                throw JSONRPCError.userError("Quoted message not found: \(author) at \(quoted)")
            }
            replyTo = message.id
        }
        // Every recipient is looked up before anything is staged or queued: one unknown name fails the call with nothing
        // sent and nothing left behind.
        let accountIds = try await resolve(recipients)
        var files: [URL] = []
        var sent: [(id: Int64, recipient: String?, group: GroupInfo?)] = []
        do {
            for attachment in attachments { files.append(try staging.file(for: attachment)) }
            let draft = MessageDraft(
                body: text, attachments: try files.map { try OutgoingAttachment(file: $0) }, replyTo: replyTo,
                mentions: mentions)
            // Everything is queued before anything is sent: one pass for all of it, below.
            for accountId in accountIds {
                sent.append(
                    (
                        try await client.send(draft, to: .person(accountId), attempt: .queueOnly, uploadProgress: { _, _, _ in }).messageId
                            ?? 0, accountId, nil
                    ))
            }
            for group in groups {
                sent.append(
                    (
                        try await client.send(draft, to: .group(group.id), attempt: .queueOnly, uploadProgress: { _, _, _ in }).messageId
                            ?? 0, nil, group
                    ))
            }
        } catch {
            // What was queued carries its files; the rest go now.
            if sent.isEmpty { staging.discard(files) } else { staging.track(files, carriedBy: sent.map(\.id)) }
            throw error
        }
        staging.track(files, carriedBy: sent.map(\.id))
        _ = try await client.sendQueued(attempt: .dueJobs, uploadProgress: { _, _, _ in })
        try staging.removeFinished(client)
        var results: [JSONValue] = []
        var timestamp: UInt64 = 0
        for (id, recipient, group) in sent {
            let message = try client.message(id: id)
            timestamp = timestamp == 0 ? message?.timestamp ?? 0 : timestamp
            let type = Self.resultType(message, failure: try client.failure(ofMessage: id))
            if let recipient {
                results.append(try result(for: recipient, type: type, group: nil))
            } else if let group {
                results += try memberResults(of: group, type: type)
            }
        }
        return try answer(timestamp: timestamp, results: results)
    }

    /// signal-cli's `mention` values, `START:LENGTH:RECIPIENT` each (UTF-16 offsets into the message, a recipient as
    /// ``SignalCLIAddress`` takes it), as mentions of Parley accounts.
    func mentions(_ values: [String]) async throws -> [Mention] {
        // Bounded before each is looked up.
        guard values.count <= Mention.maximumPerMessage else {
            throw JSONRPCError.userError("At most \(Mention.maximumPerMessage) mentions per message")
        }
        return try await values.asyncMap { value in
            let parts = value.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let start = Int(parts[0]), let length = Int(parts[1]) else {
                throw JSONRPCError.userError("Invalid mention syntax (\(value)) expected 'start:length:recipientNumber'")
            }
            return Mention(accountId: try await SignalCLIAddress.resolve(String(parts[2]), with: client), start: start, length: length)
        }
    }

    func sendReaction(_ p: SendReactionParameters) async throws -> JSONValue {
        guard let emoji = p.emoji else { throw JSONRPCError.userError("Emoji parameter is missing") }
        guard let target = p.targetTimestamp else { throw JSONRPCError.userError("Target timestamp parameter is missing") }
        let recipients = p.recipients
        let remove = p.remove
        let groups = try groups(p.groupIds)
        guard let author = p.targetAuthor ?? (recipients.count == 1 ? recipients[0] : nil) else {
            throw JSONRPCError.userError("Target author parameter is missing")
        }
        let message = try await message(by: author, sentAt: target)
        let accountIds = try await resolve(recipients)
        return try await delivered(
            try await client.react(emoji, to: message.id, remove: remove, attempt: .dueJobs), to: accountIds, groups: groups)
    }

    func remoteDelete(_ p: RemoteDeleteParameters) async throws -> JSONValue {
        guard let target = p.targetTimestamp else { throw JSONRPCError.userError("Target timestamp parameter is missing") }
        // Every parameter is read, and every recipient looked up, before the delete is queued: a refusal after it would
        // invite a retry of what went out.
        let accountIds = try await resolve(p.recipients)
        let groups = try groups(p.groupIds)
        return try await delivered(
            try await client.deleteForEveryone(try ownMessage(sentAt: target).id, attempt: .dueJobs), to: accountIds, groups: groups)
    }

    func sendReceipt(_ p: SendReceiptParameters) async throws -> JSONValue {
        guard let recipient = p.recipient else { throw JSONRPCError.userError("Recipient parameter is missing") }
        guard (p.type ?? "read") == "read" else {
            throw JSONRPCError.userError("Parley sends read receipts only, not viewed receipts")
        }
        let targets = p.targetTimestamps
        guard !targets.isEmpty else { throw JSONRPCError.userError("Target timestamp parameter is missing") }
        // Bounded before any is looked up; the sender is looked up once.
        guard targets.count <= Self.maximumTargets else {
            throw JSONRPCError.userError("At most \(Self.maximumTargets) target timestamps per call")
        }
        let authorId = try await SignalCLIAddress.resolve(recipient, with: client)
        let messages = try targets.map { try message(by: authorId, named: recipient, sentAt: $0).id }
        // These messages alone are marked read, and get read receipts: the rest of the conversation stays unread.
        _ = try await client.markRead(messageIds: messages, attempt: .dueJobs)
        return try answer(timestamp: Self.now, results: [try result(for: authorId, type: "SUCCESS", group: nil)])
    }

    /// Typing to people and to groups (each group's other members, one result per member). At most
    /// ``maximumRecipients`` in all, a group counting its members, counted before any recipient is looked up.
    func sendTyping(_ p: SendTypingParameters) async throws -> JSONValue {
        let state: TypingAction = p.stop ? .stopped : .started
        let groups = try groups(p.groupIds)
        try Self.refuseLeft(groups)
        let recipients = p.recipients
        guard recipients.count + groups.reduce(0, { $0 + $1.members.count - 1 }) <= Self.maximumRecipients else {
            throw JSONRPCError.userError("At most \(Self.maximumRecipients) recipients per call, counting each group's members")
        }
        let accountIds = try await resolve(recipients)
        guard !accountIds.isEmpty || !groups.isEmpty else { throw JSONRPCError.userError("No recipients given") }
        var results: [JSONValue] = []
        for accountId in accountIds {
            let sent = try await client.sendTyping(state, to: accountId)
            results.append(try result(for: accountId, type: sent ? "SUCCESS" : "NETWORK_FAILURE", group: nil))
        }
        let own = try client.credentials().accountId
        for group in groups {
            let reached = Set(try await client.sendTyping(state, toGroup: group.id))
            for member in group.members where member != own {
                results.append(try result(for: member, type: reached.contains(member) ? "SUCCESS" : "NETWORK_FAILURE", group: group))
            }
        }
        return try answer(timestamp: Self.now, results: results)
    }
}
