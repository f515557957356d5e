import Foundation

/// The durable job queue below the verbs: sends, receipts, retries and name look-ups run in passes (each verb that
/// sends runs them as its ``DeliveryAttempt`` says, and ``sendQueued(attempt:uploadProgress:)`` on its own) or, while
/// ``listen(onOutcome:)`` runs, as soon as jobs are queued or due (``JobRunner``). Front doors never see jobs.
extension ParleyClient {
    /// What one pass over the job queue did.
    public typealias JobReport = ParleyKit.JobReport

    /// Whether the reaction, edit, delete for everyone or timer change sent at `timestamp` (what
    /// ``MessageSender/react(_:to:remove:)``, ``MessageSender/edit(_:body:mentions:)`` and
    /// ``MessageSender/deleteForEveryone(_:)`` return) is still queued: not sent yet, it goes out when the server can be
    /// reached. Whichever pass ran it — this caller's ``runJobs(includingWaiting:uploadProgress:)`` or `listen`'s.
    func isQueued(actSentAt timestamp: UInt64, groupChange: Bool = false) throws -> Bool {
        try database.read { db in try JobQueue.holdsContent(sentAt: timestamp, groupChanges: groupChange, db) }
    }

    /// Whether the act sent at `timestamp` was given up on (a refusal that is not the server being busy or away, or
    /// too many such answers) by a job pass of this process lately — its job is gone, as a sent act's is.
    func actFailed(sentAt timestamp: UInt64) -> Bool {
        jobs.failedActs.contains(timestamp)
    }

    /// Runs every due job once (sends, receipts); with `includingWaiting`, also those waiting out a retry's backoff (a
    /// person asked for it now: the server may be back). Failures to reach the server are retried later, with backoff
    /// and without limit — a message is never failed for being written offline; 429 and 5xx answers count toward
    /// ``MessageSender/maximumAttempts``. `uploadProgress` hears about attachment uploads (for a progress bar).
    @discardableResult
    func runJobs(
        includingWaiting: Bool = false,
        uploadProgress: @escaping TransferProgress = { _, _, _ in }
    ) async throws -> JobReport {
        try await jobs.runDue(includingWaiting: includingWaiting, uploadProgress: uploadProgress)
    }
}
