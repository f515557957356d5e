import Foundation

/// One piece of durable work: written in the same transaction as the data it concerns, removed only when done
/// (``JobQueue``), run by ``JobRunner``. Stored as a kind and a JSON payload, so rows written by earlier versions
/// still read.
enum Job: Sendable {
    /// Send a stored message (upload its attachments, encrypt, deliver, send the transcript).
    case send(MessageSender.SendJob)
    /// Send an act on earlier messages or on the conversation (reaction, edit, delete, timer, group change).
    case content(MessageSender.ContentJob)
    /// Send a delivery or read receipt.
    case receipt(MessageReceiver.ReceiptJob)
    /// Ask a device to send again what this device could not decrypt.
    case retryRequest(RetryReceipts.RequestJob)
    /// Send again what a device could not decrypt.
    case resend(RetryReceipts.ResendJob)
    /// Look up a username messages were written to offline.
    case resolveRecipient(PendingRecipients.Job)

    /// A stored job's kind did not name one of these (written by a newer version, or damaged).
    struct UnknownKind: Error, CustomStringConvertible {
        let kind: String
        var description: String { "a job of unknown kind “\(kind)”" }
    }

    /// The kind stored in the `jobs` table.
    var kind: String {
        switch self {
        case .send: "send"
        case .content: "content"
        case .receipt: "receipt"
        case .retryRequest: "retry-receipt"
        case .resend: "resend"
        case .resolveRecipient: "resolve-recipient"
        }
    }

    /// The payload stored in the `jobs` table.
    func payload() throws -> Data {
        let encoder = JSONEncoder()
        switch self {
        case .send(let job): return try encoder.encode(job)
        case .content(let job): return try encoder.encode(job)
        case .receipt(let job): return try encoder.encode(job)
        case .retryRequest(let job): return try encoder.encode(job)
        case .resend(let job): return try encoder.encode(job)
        case .resolveRecipient(let job): return try encoder.encode(job)
        }
    }

    /// The job a stored kind and payload describe.
    init(kind: String, payload: Data) throws {
        let decoder = JSONDecoder()
        switch kind {
        case "send": self = .send(try decoder.decode(MessageSender.SendJob.self, from: payload))
        case "content": self = .content(try decoder.decode(MessageSender.ContentJob.self, from: payload))
        case "receipt": self = .receipt(try decoder.decode(MessageReceiver.ReceiptJob.self, from: payload))
        case "retry-receipt": self = .retryRequest(try decoder.decode(RetryReceipts.RequestJob.self, from: payload))
        case "resend": self = .resend(try decoder.decode(RetryReceipts.ResendJob.self, from: payload))
        case "resolve-recipient": self = .resolveRecipient(try decoder.decode(PendingRecipients.Job.self, from: payload))
        default: throw UnknownKind(kind: kind)
        }
    }
}

/// The durable queue in ``Job``s: Storage's ``JobQueue`` keeps kinds and payloads, this reads and writes them as jobs.
extension JobQueue {
    /// A job as queued.
    struct Queued: Sendable {
        /// Its row.
        let id: Int64
        /// The job; `nil` when its row cannot be read (``unreadable``).
        let job: Job?
        /// Why the row cannot be read, when it cannot.
        let unreadable: String?
        /// Attempts so far.
        let attempts: Int
    }

    /// Queues `job`, due at once (``enqueue(kind:payload:now:_:)``).
    static func enqueue(_ job: Job, now: UInt64, _ db: StorageTransaction) throws {
        try enqueue(kind: job.kind, payload: try job.payload(), now: now, db)
    }

    /// Up to `limit` jobs due at `now`, oldest first.
    static func due(now: UInt64, limit: Int = 50, _ db: StorageTransaction) throws -> [Queued] {
        try dueRows(now: now, limit: limit, db).map { row in
            do {
                return Queued(id: row.id, job: try Job(kind: row.kind, payload: row.payload), unreadable: nil, attempts: row.attempts)
            } catch {
                return Queued(id: row.id, job: nil, unreadable: "\(error)", attempts: row.attempts)
            }
        }
    }

    /// Schedules another attempt of `queued`, with backoff.
    static func retry(_ queued: Queued, error: String, now: UInt64, _ db: StorageTransaction) throws {
        try retry(queued.id, attempts: queued.attempts, error: error, now: now, db)
    }

    /// Whether the content job (a reaction, an edit, a delete, a timer change; with `groupChanges`, also a group change
    /// this account made) sent at `timestamp` is still queued. Such a job is queued at its own timestamp, so only the
    /// jobs created then are read.
    static func holdsContent(sentAt timestamp: UInt64, groupChanges: Bool = false, _ db: StorageTransaction) throws -> Bool {
        try payloads(kind: "content", createdAt: timestamp, db).contains { payload in
            guard case .content(let job) = try? Job(kind: "content", payload: payload) else { return false }
            // A group-state correction is content queued at the wall clock's time: never an act. (A correction queued in
            // the very millisecond of a group change counts with it: that change's report then says queued a little long.)
            return job.timestamp == timestamp && (groupChanges || job.message.group?.state == nil)
        }
    }
}
