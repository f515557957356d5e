import Foundation

/// The verbs that send: each queues durably, then goes as far as the caller's ``DeliveryAttempt`` asks, and reports
/// where what it queued stands. Front doors (the CLI, the daemon, the REST layer) call these and nothing below them.
extension ParleyClient {
    /// Sends `draft` to `recipient`: queued durably first (from then on it survives any crash), then sent as
    /// `attempt` says. A person's username this device has never looked up, while the server cannot be reached, is
    /// kept with the message, which goes out once the name is looked up. `uploadProgress` hears about attachment uploads.
    ///
    /// - Throws: ``ParleyError/invalidArgument(_:)`` for an empty message, a mention out of range, an unknown group or
    ///   one this account left; ``ParleyError/Server`` when no account has the username.
    @discardableResult
    public func send(
        _ draft: MessageDraft, to recipient: Recipient, attempt: DeliveryAttempt = .everything,
        uploadProgress: @escaping TransferProgress = { _, _, _ in }
    ) async throws -> SendReport {
        let id = try await enqueue(draft, to: recipient)
        let jobs = try await runJobs(for: attempt, uploadProgress: uploadProgress)
        return report(ofMessage: id, jobs: jobs)
    }

    /// Sends what is queued — messages, acts, receipts, retries — as `attempt` says (``DeliveryAttempt/everything``:
    /// also what waits out a retry's backoff). Failures to reach the server are retried later, with backoff and without
    /// limit — a message is never failed for being written offline; 429 and 5xx answers count toward a limit of attempts.
    @discardableResult
    public func sendQueued(
        attempt: DeliveryAttempt = .everything,
        uploadProgress: @escaping TransferProgress = { _, _, _ in }
    ) async throws -> JobReport {
        try await runJobs(for: attempt, uploadProgress: uploadProgress)
    }

    /// Reacts to message `messageId` with `emoji` (replacing this account's earlier reaction), or withdraws the
    /// reaction when `remove` is set.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` when `emoji` is not one emoji or there is no such message.
    @discardableResult
    public func react(
        _ emoji: String, to messageId: Int64, remove: Bool = false,
        attempt: DeliveryAttempt = .dueJobs
    ) async throws -> SendReport {
        try await settleAct(sentAt: try sender.react(emoji, to: messageId, remove: remove), attempt: attempt)
    }

    /// Replaces the text of this account's message `messageId` (within 24 hours of sending), with the accounts the new
    /// text mentions; the earlier text is kept as history and the message shows as edited.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` for an empty or over-long text, or a message that is not this
    ///   account's or too old.
    @discardableResult
    public func edit(
        _ messageId: Int64, body: String, mentions: [Mention] = [],
        attempt: DeliveryAttempt = .dueJobs
    ) async throws -> SendReport {
        try await settleAct(sentAt: try sender.edit(messageId, body: body, mentions: mentions), attempt: attempt)
    }

    /// Deletes this account's message `messageId` for everyone (within 24 hours of sending): every copy becomes a
    /// tombstone and its content is erased.
    @discardableResult
    public func deleteForEveryone(_ messageId: Int64, attempt: DeliveryAttempt = .dueJobs) async throws -> SendReport {
        try await settleAct(sentAt: try sender.deleteForEveryone(messageId), attempt: attempt)
    }

    /// Sets the disappearing-message timer (seconds, 0 turns it off) of the conversation with `person` (an account id
    /// or a username) for both sides.
    @discardableResult
    public func setExpireTimer(_ seconds: UInt32, with person: String, attempt: DeliveryAttempt = .dueJobs) async throws -> SendReport {
        let accountId = try await resolve(person)
        return try await settleAct(sentAt: try sender.setExpireTimer(seconds, with: accountId), attempt: attempt)
    }

    /// Marks conversation `conversationId` read, starts the disappearing timers of the messages just read, and sends read
    /// receipts for them as `attempt` says (unless turned off in ``ClientSettings/readReceipts``).
    @discardableResult
    public func markRead(conversationId: Int64, attempt: DeliveryAttempt) async throws -> JobReport {
        try markRead(conversationId: conversationId)
        return try await runJobs(for: attempt)
    }

    /// Marks messages `ids` read — those of them that are incoming and unread — starts their timers, and sends read
    /// receipts for them as `attempt` says (unless turned off).
    @discardableResult
    public func markRead(messageIds ids: [Int64], attempt: DeliveryAttempt) async throws -> JobReport {
        try markRead(messageIds: ids)
        return try await runJobs(for: attempt)
    }

    // MARK: Below the verbs

    /// Stores `draft` for `recipient` with its send job; returns the message's local id.
    func enqueue(_ draft: MessageDraft, to recipient: Recipient) async throws -> Int64 {
        switch recipient {
        case .group(let groupId):
            return try sender.enqueue(
                body: draft.body, toGroup: groupId, files: draft.attachments, replyTo: draft.replyTo,
                mentions: draft.mentions)
        case .person(let name):
            do {
                return try sender.enqueue(
                    body: draft.body, to: try await resolve(name), files: draft.attachments,
                    replyTo: draft.replyTo, mentions: draft.mentions)
            } catch ParleyError.server(.transport) where UUID(uuidString: name) == nil {
                // A name never looked up, and no server to ask: the message waits with the name.
                return try sender.enqueue(
                    body: draft.body, toUnresolvedUsername: name, files: draft.attachments,
                    replyTo: draft.replyTo, mentions: draft.mentions)
            }
        }
    }

    /// One pass over the queue as `attempt` says (none for ``DeliveryAttempt/queueOnly``).
    func runJobs(for attempt: DeliveryAttempt, uploadProgress: @escaping TransferProgress = { _, _, _ in }) async throws -> JobReport {
        switch attempt {
        case .queueOnly: return JobReport()
        case .dueJobs: return try await runJobs(uploadProgress: uploadProgress)
        case .everything: return try await runJobs(includingWaiting: true, uploadProgress: uploadProgress)
        }
    }

    /// Where message `id` stands after `jobs`.
    /// The message is queued whatever happens here: a row that cannot be read now reports it queued, never an error
    /// that would make a caller think nothing was.
    func report(ofMessage id: Int64, jobs: JobReport) -> SendReport {
        let message = try? message(id: id)
        let status: SendReport.Status =
            switch message?.status {
            case .sent, .delivered, .read: .sent
            case .failed: .failed
            default: .queued
            }
        return SendReport(
            messageId: id, timestamp: message?.timestamp, status: status, failure: (try? failure(ofMessage: id)) ?? nil, jobs: jobs)
    }

    /// Runs the queue as `attempt` says for the act (reaction, edit, delete, timer) sent at `timestamp`, and reports
    /// where it stands, whichever pass ran it — this one's or `listen`'s.
    func settleAct(sentAt timestamp: UInt64, attempt: DeliveryAttempt) async throws -> SendReport {
        try await settle(sentAt: [timestamp], groupChanges: false, attempt: attempt)
    }

    /// Runs the queue as `attempt` says for the content sent at `timestamps` (acts, or with `groupChanges` the group
    /// changes one verb made), and reports where they stand together: failed if one was given up on, queued while one
    /// waits, else sent. A pass takes at most 50 jobs: more passes while they wait behind others that get through (at
    /// most 20).
    func settle(sentAt timestamps: [UInt64], groupChanges: Bool, attempt: DeliveryAttempt) async throws -> SendReport {
        func waiting() throws -> Bool { try timestamps.contains { try isQueued(actSentAt: $0, groupChange: groupChanges) } }
        var jobs = JobReport()
        if attempt != .queueOnly {
            var passes = 0
            repeat {
                let pass = try await runJobs(for: attempt)
                jobs.add(pass)
                passes += 1
                if pass.completed == 0 { break }
            } while try passes < 20 && waiting()
        }
        let status: SendReport.Status = timestamps.contains(where: actFailed(sentAt:)) ? .failed : try waiting() ? .queued : .sent
        return SendReport(timestamp: timestamps.last, status: status, jobs: jobs)
    }
}
