import Foundation
import Logging

/// Runs the durable job queue (``JobQueue``): each ``Job`` goes to the pipeline it belongs to, in passes
/// (``runDue(includingWaiting:uploadProgress:)``, one at a time) or, while a client listens, as soon as jobs are
/// queued or come due (``runWhenDue(_:)``). Failures to reach the server are retried with backoff and without limit —
/// a message is never failed for being written offline; 429 and 5xx answers count toward
/// ``MessageSender/maximumAttempts``; any other failure fails the job (and its message) for good.
struct JobRunner: Sendable {
    let database: ParleyDatabase
    let api: ParleyServerClient
    let sender: MessageSender
    let delivery: MessageDelivery
    let retryReceipts: RetryReceipts
    /// The wall clock (milliseconds since 1970): when jobs are due, and when a failed message's timer starts.
    let now: @Sendable () -> UInt64
    let logger: Logger
    /// Where a send given up on is told (``ParleyClient/events()``).
    let events: ClientEvents
    /// One pass over the queue at a time (the daemon's clients and `listen` may ask at once).
    let gate = AsyncSerialGate()
    /// The acts given up on lately.
    let failedActs = FailedActs()

    /// Runs every due job once; with `includingWaiting`, also those waiting out a retry's backoff (a person asked for it
    /// now: the server may be back). `uploadProgress` hears about attachment uploads.
    func runDue(includingWaiting: Bool, uploadProgress: @escaping TransferProgress) async throws -> JobReport {
        try await gate.run { try await pass(includingWaiting: includingWaiting, uploadProgress: uploadProgress) }
    }

    private func pass(includingWaiting: Bool, uploadProgress: @escaping TransferProgress) async throws -> JobReport {
        var report = JobReport()
        let dueBy = includingWaiting ? UInt64(Int64.max) : now()
        let queue = try database.read { db in try JobQueue.due(now: dueBy, db) }
        // A looked-up name queues the sends that waited for it: they go in a second pass.
        var queuedSends = false
        for (index, queued) in queue.enumerated() {
            guard let job = queued.job else {
                logger.warning("dropping a job that cannot be read", metadata: ["reason": "\(queued.unreadable ?? "")"])
                try await database.awaitableWrite { db in try JobQueue.complete(queued.id, db) }
                continue
            }
            do {
                try await run(job, uploadProgress: uploadProgress)
                if case .resolveRecipient = job { queuedSends = true }
                try await database.awaitableWrite { db in try JobQueue.complete(queued.id, db) }
                report.completed += 1
            } catch ParleyError.server(let error) where error.status == nil || error.status == 429 || (error.status ?? 0) >= 500 {
                // Transient: keep the job, try again later.
                let now = now()
                try await database.awaitableWrite { db in try JobQueue.retry(queued, error: "\(error)", now: now, db) }
                report.deferred += 1
                if error.status != nil, queued.attempts + 1 >= MessageSender.maximumAttempts {
                    try await fail(queued, job, reason: "\(error)")
                    report.failed += 1
                }
                if error.status == nil {
                    // The server cannot be reached: the other jobs wait for the next pass untried (and uncounted
                    // against their attempts) rather than each waiting for its own connection to fail.
                    report.deferred += queue.count - index - 1
                    break
                }
            } catch {
                // The kind of failure travels with its text, so that `failure(ofMessage:)` can say it as a type.
                let blocked = if case ParleyError.duplicateBlocked = error { true } else { false }
                try await fail(queued, job, reason: (blocked ? MessageFailure.blockedContentPrefix : "") + "\(error)")
                report.failed += 1
            }
        }
        if queuedSends {
            let more = try await pass(includingWaiting: false, uploadProgress: uploadProgress)
            report.completed += more.completed
            report.failed += more.failed
            report.deferred += more.deferred
        }
        return report
    }

    /// Runs one job in the pipeline it belongs to.
    private func run(_ job: Job, uploadProgress: @escaping TransferProgress) async throws {
        func credentials() throws -> DeviceCredentials { try database.read(LocalAccount.credentials) }
        switch job {
        case .send(let send):
            try await sender.run(send, progress: uploadProgress)
        case .content(let content):
            try await sender.run(content)
        case .receipt(let receipt):
            try await delivery.deliver(
                MessageContent(receipt: Receipt(kind: receipt.kind, timestamps: receipt.timestamps)),
                to: receipt.accountId, timestamp: sender.clock.next(), as: try credentials())
        case .retryRequest(let request):
            try await retryReceipts.send(request, as: try credentials())
        case .resend(let resend):
            try await retryReceipts.resend(resend, as: try credentials())
        case .resolveRecipient(let lookup):
            try await PendingRecipients(database: database, api: api).run(lookup, as: try credentials(), now: now())
        }
    }

    /// Gives up on `job`: a send's message is marked failed for `reason` (it still disappears on its timer).
    private func fail(_ queued: JobQueue.Queued, _ job: Job, reason: String) async throws {
        let now = now()
        try await database.awaitableWrite { db in
            if case .send(let send) = job { try MessagesTable.markFailed(send.messageId, reason: reason, now: now, db) }
            try JobQueue.complete(queued.id, db)
        }
        switch job {
        case .send(let send): events.publish(.sendFailed(messageId: send.messageId, timestamp: nil, reason: reason))
        case .content(let content):
            failedActs.record(content.timestamp)
            events.publish(.sendFailed(messageId: nil, timestamp: content.timestamp, reason: reason))
        default: break
        }
    }

    /// Runs due jobs whenever `queued` says the job table changed (checked every 100 ms) and when the earliest retry
    /// comes due, until cancelled: receipts leave within moments of the message they answer.
    func runWhenDue(_ queued: JobSignal) async {
        var nextDue: UInt64?
        while !Task.isCancelled {
            if queued.take() || nextDue.map({ $0 <= now() }) == true {
                let report = try? await runDue(includingWaiting: false, uploadProgress: { _, _, _ in })
                // Cleared before the read: a job queued after it sets the signal again, one queued before is in the read.
                _ = queued.take()
                nextDue = try? database.read { db in try JobQueue.earliestDue(db) }
                if let report, report.deferred > 0, report.completed == 0 {
                    // The server cannot be reached: the socket's reconnection finds out when it can; try again in 5 s.
                    try? await Task.sleep(for: .seconds(5))
                }
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }
}
