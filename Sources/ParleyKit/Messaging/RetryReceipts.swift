import Foundation
import ParleyAPI
import ParleyProtocol

/// Retry receipts, as Signal's clients exchange them, so that a broken session loses no message.
///
/// A device that cannot decrypt a message (no session, a bad MAC, an unknown or used prekey, an unknown sender key)
/// stores it as undecryptable and sends the sending device a `DecryptionErrorMessage` inside `PlaintextContent`
/// (``RequestJob``). The sender — if the ratchet key named matches its current session — archives that session, and
/// answers from its ``MessageSendLog``: a fresh session from the device's prekey bundle, the group's sender key handed
/// out again for a group message, and the original content sent once more under its original timestamp
/// (``ResendJob``). The receiver shows the message in place of the undecryptable one, once.
struct RetryReceipts: Sendable {
    let database: ParleyDatabase
    let delivery: MessageDelivery
    let groupDelivery: GroupDelivery
    let clock: MonotonicTimestamp

    /// Ask `accountId`'s device `deviceId` to send its message of `timestamp` again.
    struct RequestJob: Codable, Equatable, Sendable {
        let accountId: String
        let deviceId: UInt32
        let timestamp: UInt64
        /// `CiphertextMessage.MessageType` of the message that failed.
        let type: UInt8
        /// The message that failed (its ratchet key tells the sender which session broke).
        let ciphertext: Data
    }

    /// Send the message of `timestamp` again to `accountId`'s device `deviceId`, which asked for it.
    struct ResendJob: Codable, Equatable, Sendable {
        let accountId: String
        let deviceId: UInt32
        let timestamp: UInt64
    }

    /// Sends the retry receipt `job` describes to every device of its account (each device ignores one naming another).
    func send(_ job: RequestJob, as credentials: DeviceCredentials) async throws {
        var named: DecryptionErrorMessage?
        if let type = CiphertextMessage.MessageType(rawValue: job.type) {
            named = try? DecryptionErrorMessage(
                originalMessageBytes: job.ciphertext, type: type, timestamp: job.timestamp,
                originalSenderDeviceId: job.deviceId)
        }
        // A message too broken to name its ratchet key still gets a receipt, without one (as for a sender-key message).
        let message =
            try named
            ?? DecryptionErrorMessage(
                originalMessageBytes: Data(), type: .senderKey, timestamp: job.timestamp,
                originalSenderDeviceId: job.deviceId)
        let content = PlaintextContent(message).serialize().base64EncodedString()
        _ = try await delivery.send(to: job.accountId, timestamp: clock.next(), as: credentials) { devices in
            devices.map {
                OutgoingMessage(
                    destinationDeviceId: $0.deviceId, destinationRegistrationId: $0.registrationId,
                    type: CiphertextMessage.MessageType.plaintext.rawValue, content: content)
            }
        }
    }

    /// Takes in a retry receipt from `sender` (in the receive transaction): when it names this device, archives the
    /// session it says broke and queues the resend. Returns whether it named this device.
    static func accept(
        _ plaintext: Data, from sender: ProtocolAddress, localDeviceId: UInt32, store: DatabaseProtocolStore,
        _ db: StorageTransaction, now: UInt64
    ) throws -> Bool {
        let request = try DecryptionErrorMessage.extractFromSerializedContent(try PlaintextContent(bytes: plaintext).body)
        guard request.deviceId == localDeviceId else { return false }
        try MessageContent.checkTimestamps([request.timestamp], of: "a retry receipt")
        // Only a message this device can still resend is worth a new session: anything else (pruned, answered,
        // never sent) leaves the session alone, so a peer cannot break a working session with made-up receipts.
        guard try MessageSendLog.unansweredEntry(to: sender.name, deviceId: sender.deviceId, timestamp: request.timestamp, db) != nil else {
            return true
        }
        let context = TransactionContext(db)
        if let ratchetKey = request.ratchetKey, var session = try store.loadSession(for: sender, context: context),
            (try? session.currentRatchetKeyMatches(ratchetKey)) == true
        {
            session.archiveCurrentState()
            try store.storeSession(session, for: sender, context: context)
        }
        try JobQueue.enqueue(
            .resend(ResendJob(accountId: sender.name, deviceId: sender.deviceId, timestamp: request.timestamp)), now: now, db)
        return true
    }

    /// Answers one retry receipt: the logged content once more (on a fresh session when the old one was archived:
    /// ``MessageDelivery`` builds one for a device without a current session). Does nothing when the log holds no
    /// unanswered entry for it. The entry is marked once the resend is out (a failed attempt is retried with the job).
    func resend(_ job: ResendJob, as credentials: DeviceCredentials) async throws {
        let entry = try database.read { db in
            try MessageSendLog.unansweredEntry(to: job.accountId, deviceId: job.deviceId, timestamp: job.timestamp, db)
        }
        guard let entry else { return }
        if case .group(let conversationId) = entry.kind {
            try await groupDelivery.handOutAgain(toGroup: conversationId, member: job.accountId, as: credentials)
        }
        // To every device of the account (the server wants them all); the others already have it and drop the copy.
        try await delivery.deliver(
            plaintext: entry.plaintext, to: job.accountId, timestamp: job.timestamp, log: nil,
            purpose: "resend:\(job.deviceId)", as: credentials)
        try await database.awaitableWrite { db in
            try MessageSendLog.markResent(to: job.accountId, deviceId: job.deviceId, timestamp: job.timestamp, db)
        }
    }
}
