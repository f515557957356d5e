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
