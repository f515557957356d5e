import Foundation
import GRDB
import ParleyAPI
import ParleyProtocol

/// The receive pipeline: decrypt, de-duplicate, store — all in one transaction with the session state the
/// decryption advanced — and only then acknowledge. Failures are stored as undecryptable messages, never dropped.
public struct MessageReceiver: Sendable {
    let database: ParleyDatabase
    let store: DatabaseProtocolStore
    let clock: MonotonicTimestamp

    /// What processing one envelope did.
    public enum Outcome: Sendable, Equatable {
        /// A new message was stored with this local id.
        case stored(messageId: Int64)
        /// A copy of a message already stored (or a replayed ciphertext): nothing new.
        case duplicate
        /// Receipts or a sync transcript were applied.
        case applied
        /// Decryption failed; an undecryptable-message row records it.
        case undecryptable(reason: String)
    }

    struct ReceiptJob: Codable {
        let accountId: String
        let kind: String
        let timestamps: [UInt64]
    }

    /// Processes one envelope; the caller acknowledges it to the server after this returns (the result is committed).
    public func process(_ envelope: Envelope) async throws -> Outcome {
        guard let ciphertext = Data(base64Encoded: envelope.content) else { return .undecryptable(reason: "content is not base64") }
        let now = clock.next()
        return try await database.awaitableWrite { [store] db in
            let credentials = try LocalAccount.credentials(db)
            let sender = try ProtocolAddress(name: envelope.sourceAccountId, deviceId: envelope.sourceDeviceId)
            let context = TransactionContext(db)
            let plaintext: [UInt8]
            do {
                switch envelope.type {
                case CiphertextMessage.MessageType.preKey.rawValue:
                    plaintext = try signalDecryptPreKey(
                        message: try PreKeySignalMessage(bytes: ciphertext), from: sender, sessionStore: store, identityStore: store,
                        preKeyStore: store, signedPreKeyStore: store, kyberPreKeyStore: store, context: context)
                case CiphertextMessage.MessageType.whisper.rawValue:
                    plaintext = try signalDecrypt(message: try SignalMessage(bytes: ciphertext), from: sender, sessionStore: store,
                                                  identityStore: store, context: context)
                default:
                    throw SignalError.invalidMessage("unsupported envelope type \(envelope.type)")
                }
            } catch SignalError.duplicatedMessage {
                return .duplicate
            } catch {
                return try Self.recordFailure(envelope, reason: "\(error)", db, now: now)
            }
            let content: MessageContent
            do {
                content = try MessageContent.decode(plaintext)
            } catch {
                return try Self.recordFailure(envelope, reason: "\(error)", db, now: now)
            }
            if let message = content.dataMessage {
                let threadId = try ConversationStore.thread(with: envelope.sourceAccountId, db, now: now)
                let replyTo = try message.quote.flatMap { try ConversationStore.messageId(author: $0.authorAccountId, timestamp: $0.timestamp, db) }
                guard let id = try ConversationStore.insert(NewMessage(
                    threadId: threadId, outgoing: false, authorAccountId: envelope.sourceAccountId, authorDeviceId: envelope.sourceDeviceId,
                    timestamp: envelope.timestamp, serverTimestamp: envelope.serverTimestamp, body: message.body, status: .received,
                    replyToId: replyTo), db)
                else { return .duplicate }
                try Self.storeAttachments(message.attachments, messageId: id, db)
                if envelope.sourceAccountId != credentials.accountId {
                    try JobQueue.enqueue(kind: "receipt", payload: ReceiptJob(
                        accountId: envelope.sourceAccountId, kind: "delivered", timestamps: [envelope.timestamp]), db, now: now)
                }
                return .stored(messageId: id)
            }
            if let transcript = content.sentTranscript {
                // Only this account's own devices may tell us what "we" sent.
                guard envelope.sourceAccountId == credentials.accountId else {
                    return try Self.recordFailure(envelope, reason: "a sent transcript from another account", db, now: now)
                }
                let threadId = try ConversationStore.thread(with: transcript.destinationAccountId, db, now: now)
                guard let id = try ConversationStore.insert(NewMessage(
                    threadId: threadId, outgoing: true, authorAccountId: credentials.accountId, authorDeviceId: envelope.sourceDeviceId,
                    timestamp: envelope.timestamp, serverTimestamp: envelope.serverTimestamp, body: transcript.message.body,
                    status: .sent, replyToId: nil), db)
                else { return .duplicate }
                try Self.storeAttachments(transcript.message.attachments, messageId: id, db)
                return .stored(messageId: id)
            }
            if let receipt = content.receipt {
                let status: MessageStatus = receipt.kind == "read" ? .read : .delivered
                for timestamp in receipt.timestamps {
                    guard let id = try ConversationStore.messageId(author: credentials.accountId, timestamp: timestamp, db) else { continue }
                    try ConversationStore.setStatus(status, messageId: id, db)
                    try db.execute(sql: "INSERT OR REPLACE INTO receipts (message_id, account_id, device_id, kind, timestamp) VALUES (?, ?, ?, ?, ?)",
                                   arguments: [id, envelope.sourceAccountId, Int64(envelope.sourceDeviceId), receipt.kind, Int64(now)])
                }
                return .applied
            }
            return .applied
        }
    }

    private static func storeAttachments(_ pointers: [AttachmentPointer], messageId: Int64, _ db: Database) throws {
        for pointer in pointers {
            try db.execute(sql: """
                INSERT INTO attachments (message_id, server_id, keys, digest, size, content_type, file_name, state)
                VALUES (?, ?, ?, ?, ?, ?, ?, 'remote')
                """, arguments: [messageId, pointer.id, Data(base64Encoded: pointer.key), Data(base64Encoded: pointer.digest),
                                 pointer.size, pointer.contentType, pointer.fileName])
        }
    }

    private static func recordFailure(_ envelope: Envelope, reason: String, _ db: Database, now: UInt64) throws -> Outcome {
        let threadId = try ConversationStore.thread(with: envelope.sourceAccountId, db, now: now)
        if let id = try ConversationStore.insert(NewMessage(
            threadId: threadId, outgoing: false, authorAccountId: envelope.sourceAccountId, authorDeviceId: envelope.sourceDeviceId,
            timestamp: envelope.timestamp, serverTimestamp: envelope.serverTimestamp, body: nil, status: .undecryptable, replyToId: nil), db) {
            try db.execute(sql: "UPDATE messages SET failure_reason = ? WHERE id = ?", arguments: [reason, id])
        }
        return .undecryptable(reason: reason)
    }
}
