import Foundation
import GRDB

/// The durable job queue's runner: sends, receipts, retries and name look-ups, in passes
/// (``runJobs(includingWaiting:uploadProgress:)``) or, while ``listen(onOutcome:)`` runs, as soon as jobs are queued or due.
extension ParleyClient {
    /// What one pass over the job queue did.
    public struct JobReport: Sendable, Equatable {
        /// Jobs finished.
        public var completed = 0
        /// Jobs that failed for good (their messages are marked failed).
        public var failed = 0
        /// Jobs that will be retried later.
        public var deferred = 0

        /// A report.
        public init(completed: Int = 0, failed: Int = 0, deferred: Int = 0) {
            self.completed = completed
            self.failed = failed
            self.deferred = deferred
        }
    }

    /// Runs every due job once (sends, receipts); with `includingWaiting`, also those waiting out a retry's backoff (a
    /// person asked for it now: the server may be back). Failures to reach the server are retried later, with backoff
    /// and without limit — a message is never failed for being written offline; 429 and 5xx answers count toward
    /// ``MessageSender/maximumAttempts``. `uploadProgress` hears about attachment uploads (for a progress bar).
    @discardableResult
    public func runJobs(includingWaiting: Bool = false,
                        uploadProgress: @escaping MessageSender.TransferProgress = { _, _, _ in }) async throws -> JobReport {
        try await jobGate.run { try await runDueJobs(includingWaiting: includingWaiting, uploadProgress: uploadProgress) }
    }

    private func runDueJobs(includingWaiting: Bool, uploadProgress: @escaping MessageSender.TransferProgress) async throws -> JobReport {
        var report = JobReport()
        let dueBy = includingWaiting ? UInt64(Int64.max) : UInt64(Date().timeIntervalSince1970 * 1000)
        let jobs = try database.read { db in try JobQueue.due(db, now: dueBy) }
        // A looked-up name queues the sends that waited for it: they go in a second pass.
        var queuedSends = false
        for (index, job) in jobs.enumerated() {
            do {
                switch job.kind {
                case "send":
                    try await sender.run(try JSONDecoder().decode(MessageSender.SendJob.self, from: job.payload), progress: uploadProgress)
                case "receipt":
                    let receipt = try JSONDecoder().decode(MessageReceiver.ReceiptJob.self, from: job.payload)
                    try await delivery.deliver(MessageContent(receipt: Receipt(kind: receipt.kind, timestamps: receipt.timestamps)),
                                               to: receipt.accountId, timestamp: sender.clock.next(),
                                               as: try credentials())
                case "content":
                    try await sender.run(try JSONDecoder().decode(MessageSender.ContentJob.self, from: job.payload))
                case RetryReceipts.requestJobKind:
                    try await retryReceipts.send(try JSONDecoder().decode(RetryReceipts.RequestJob.self, from: job.payload), as: try credentials())
                case PendingRecipients.jobKind:
                    try await PendingRecipients(database: database, api: api).run(
                        try JSONDecoder().decode(PendingRecipients.Job.self, from: job.payload), as: try credentials(), now: now())
                    queuedSends = true
                case RetryReceipts.resendJobKind:
                    try await retryReceipts.resend(try JSONDecoder().decode(RetryReceipts.ResendJob.self, from: job.payload), as: try credentials())
                default:
                    logger.warning("dropping a job of unknown kind", metadata: ["kind": "\(job.kind)"])
                }
                try await database.awaitableWrite { db in try JobQueue.complete(job.id, db) }
                report.completed += 1
            } catch let error as ServerAPIError where error.status == nil || error.status == 429 || (error.status ?? 0) >= 500 {
                // Transient: keep the job, try again later.
                let now = UInt64(Date().timeIntervalSince1970 * 1000)
                try await database.awaitableWrite { db in try JobQueue.retry(job, error: "\(error)", db, now: now) }
                report.deferred += 1
                if error.status != nil, job.attempts + 1 >= MessageSender.maximumAttempts {
                    try await fail(job, reason: "\(error)")
                    report.failed += 1
                }
                if error.status == nil {
                    // The server cannot be reached: the other jobs wait for the next pass untried (and uncounted
                    // against their attempts) rather than each waiting for its own connection to fail.
                    report.deferred += jobs.count - index - 1
                    break
                }
            } catch {
                // The kind of failure travels with its text, so that `failure(ofMessage:)` can say it as a type.
                let blocked = if case ParleyError.duplicateBlocked = error { true } else { false }
                try await fail(job, reason: (blocked ? MessageFailure.blockedContentPrefix : "") + "\(error)")
                report.failed += 1
            }
        }
        if queuedSends {
            let more = try await runDueJobs(includingWaiting: false, uploadProgress: uploadProgress)
            report.completed += more.completed
            report.failed += more.failed
            report.deferred += more.deferred
        }
        return report
    }

    private func fail(_ job: JobQueue.Job, reason: String) async throws {
        let messageId = (try? JSONDecoder().decode(MessageSender.SendJob.self, from: job.payload))?.messageId
        try await database.awaitableWrite { db in
            if job.kind == "send", let messageId {
                try ConversationStore.setStatus(.failed, messageId: messageId, reason: reason, db)
                // A message that could not be sent still disappears on its timer.
                try db.execute(sql: "UPDATE messages SET expire_at = ? + expire_timer * 1000 WHERE id = ? AND expire_timer > 0 AND expire_at IS NULL",
                               arguments: [Int64(self.now()), messageId])
            }
            try JobQueue.complete(job.id, db)
        }
    }

    /// Runs due jobs whenever `queued` says the job table changed (checked every 100 ms) and when the earliest retry
    /// comes due, until cancelled: receipts leave within moments of the message they answer.
    func runJobsWhenDue(_ queued: JobSignal) async {
        var nextDue: Int64?
        while !Task.isCancelled {
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            if queued.take() || nextDue.map({ $0 <= now }) == true {
                let report = try? await runJobs()
                // Cleared before the read: a job queued after it sets the signal again, one queued before is in the read.
                _ = queued.take()
                nextDue = try? database.read { db in try Int64.fetchOne(db, sql: "SELECT MIN(not_before) FROM jobs") }
                if let report, report.deferred > 0, report.completed == 0 {
                    // The server cannot be reached: the socket's reconnection finds out when it can; try again in 5 s.
                    try? await Task.sleep(for: .seconds(5))
                }
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }
}
