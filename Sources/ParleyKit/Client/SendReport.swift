/// What a verb that sends did (``ParleyClient/send(_:to:attempt:uploadProgress:)``, reactions, edits, deletes, timers,
/// group changes): the message or act it queued, where that stands now, and what the pass over the queue did.
public struct SendReport: Sendable, Equatable {
    /// Where what the verb queued stands when it returns.
    public enum Status: String, Sendable, Codable {
        /// The server took it for every device.
        case sent
        /// Still queued: not sent yet (the server is unreachable or busy, or the verb only queued it); it goes out
        /// with a later verb or while `listen` runs.
        case queued
        /// Given up on; ``SendReport/failure`` says why.
        case failed
    }

    /// The message's local id (sends; `nil` for reactions, edits, deletes, timers and group changes).
    public let messageId: Int64?
    /// The timestamp the message or act was sent with: it names it on every device (`AUTHOR:TIMESTAMP`).
    public let timestamp: UInt64?
    /// Where it stands.
    public let status: Status
    /// Why it failed, as a type (when ``status`` is ``Status/failed`` and the reason is known).
    public let failure: MessageFailure?
    /// What the verb's passes over the queue did, this and everything else that was due.
    public let jobs: JobReport

    /// A report.
    public init(
        messageId: Int64? = nil, timestamp: UInt64? = nil, status: Status, failure: MessageFailure? = nil,
        jobs: JobReport = JobReport()
    ) {
        self.messageId = messageId
        self.timestamp = timestamp
        self.status = status
        self.failure = failure
        self.jobs = jobs
    }
}
