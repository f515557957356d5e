import Foundation
import GRDB
import ParleyAPI
import ParleyProtocol

/// The send pipeline (the seed's `ThreadUtil.enqueueMessage`): validate, persist the message and its send job in
/// one transaction — from then on it survives any crash — then encrypt and send from the job.
public struct MessageSender: Sendable {
    let database: ParleyDatabase
    let api: ParleyServerClient
    let delivery: MessageDelivery
    let clock: MonotonicTimestamp
    let attachmentDirectory: URL
    /// Checks attachments before upload and records them after a successful send.
    let signatures: GlobalSignatureService?

    /// Text longer than this (UTF-8 bytes) travels as a text attachment with a truncated inline body.
    public static let inlineTextLimit = 2048
    /// Attempts before a send is marked failed.
    public static let maximumAttempts = 8

    /// Hears how far an attachment transfer is: the file's name, bytes done, bytes in all.
    public typealias TransferProgress = @Sendable (_ fileName: String, _ done: Int64, _ total: Int64) -> Void

    struct SendJob: Codable {
        let messageId: Int64
    }

    /// Stores an outgoing message to `accountId` with its send job; returns the message's local id.
    /// `attachments` are files to encrypt and upload when the job runs; `replyTo` is a local message id.
    @discardableResult
    public func enqueue(body: String, to accountId: String, attachments: [URL] = [], replyTo: Int64? = nil) throws -> Int64 {
        guard !body.isEmpty || !attachments.isEmpty else { throw ParleyError.invalidArgument("a message needs text or an attachment") }
        for file in attachments where !FileManager.default.isReadableFile(atPath: file.path) {
            throw ParleyError.invalidArgument("cannot read \(file.path)")
        }
        let timestamp = clock.next()
        return try database.write { db in
            let credentials = try LocalAccount.credentials(db)
            let threadId = try ConversationStore.thread(with: accountId, db, now: timestamp)
            guard let id = try ConversationStore.insert(NewMessage(
                threadId: threadId, outgoing: true, authorAccountId: credentials.accountId, authorDeviceId: credentials.deviceId,
                timestamp: timestamp, body: body, status: .sending, replyToId: replyTo), db)
            else { throw ParleyError.invalidArgument("a message with this timestamp already exists") }
            for file in attachments {
                let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
                try db.execute(sql: """
                    INSERT INTO attachments (message_id, size, content_type, file_name, local_path, state) VALUES (?, ?, ?, ?, ?, 'pending')
                    """, arguments: [id, size, "application/octet-stream", file.lastPathComponent, file.path])
            }
            try JobQueue.enqueue(kind: "send", payload: SendJob(messageId: id), db, now: timestamp)
            return id
        }
    }

    /// Runs one send job: uploads attachments, sends to the recipient's devices and a copy to this account's other
    /// devices, and marks the message sent. `progress` hears about attachment uploads.
    func run(_ job: SendJob, progress: @escaping TransferProgress = { _, _, _ in }) async throws {
        struct Loaded: Sendable {
            let credentials: DeviceCredentials
            let recipient: String
            let timestamp: UInt64
            let body: String
            let quote: Quote?
            let attachments: [(id: Int64, path: String?, pointer: AttachmentPointer?, name: String?)]
        }
        let loaded = try database.read { db -> Loaded? in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT m.timestamp, m.body, m.status, t.recipient_account_id, q.author_account_id AS quote_author, q.timestamp AS quote_timestamp
                FROM messages m JOIN threads t ON t.id = m.thread_id LEFT JOIN messages q ON q.id = m.reply_to_id WHERE m.id = ?
                """, arguments: [job.messageId]), row["status"] as String == MessageStatus.sending.rawValue
            else { return nil }
            let attachments = try Row.fetchAll(db, sql: "SELECT id, local_path, server_id, keys, digest, size, content_type, file_name FROM attachments WHERE message_id = ?",
                                               arguments: [job.messageId]).map { row in
                let serverId: String? = row["server_id"]
                let pointer = serverId.map { AttachmentPointer(
                    id: $0, key: (row["keys"] as Data).base64EncodedString(), digest: (row["digest"] as Data).base64EncodedString(),
                    size: row["size"], contentType: row["content_type"], fileName: row["file_name"]) }
                return (id: row["id"] as Int64, path: row["local_path"] as String?, pointer: pointer, name: row["file_name"] as String?)
            }
            let quoteAuthor: String? = row["quote_author"]
            let quoteTimestamp: Int64? = row["quote_timestamp"]
            return Loaded(credentials: try LocalAccount.credentials(db), recipient: row["recipient_account_id"],
                          timestamp: UInt64(row["timestamp"] as Int64), body: row["body"] ?? "",
                          quote: quoteAuthor.flatMap { author in quoteTimestamp.map { Quote(authorAccountId: author, timestamp: UInt64($0)) } },
                          attachments: attachments)
        }
        guard let loaded else { return }  // already sent or failed

        // The pre-send check: a hash in a blocking bank fails the send before anything is uploaded.
        var checked: [String] = []
        if let signatures, signatures.configuration.enabled {
            let pending = loaded.attachments.compactMap { attachment in attachment.pointer == nil ? attachment.path : nil }
            checked = try pending.map { try GlobalSignatureService.hash(ofFileAt: URL(fileURLWithPath: $0)) }
            for (path, verdict) in zip(pending, await signatures.batchContains(checked)) where verdict.blocked {
                throw ParleyError.duplicateBlocked(fileName: URL(fileURLWithPath: path).lastPathComponent)
            }
        }
        var pointers: [AttachmentPointer] = []
        for attachment in loaded.attachments {
            if let pointer = attachment.pointer {
                pointers.append(pointer)
            } else if let path = attachment.path {
                pointers.append(try await upload(URL(fileURLWithPath: path), rowId: attachment.id, name: attachment.name,
                                                 contentType: "application/octet-stream", as: loaded.credentials, progress: progress))
            }
        }
        var inline = loaded.body
        if loaded.body.utf8.count > Self.inlineTextLimit {
            let file = attachmentDirectory.appendingPathComponent("long-text-\(job.messageId).txt")
            try Data(loaded.body.utf8).write(to: file)
            pointers.append(try await upload(file, rowId: nil, name: nil, contentType: "text/x-signal-plain", as: loaded.credentials,
                                             progress: progress))
            try? FileManager.default.removeItem(at: file)
            inline = String(decoding: Array(loaded.body.utf8.prefix(Self.inlineTextLimit)), as: UTF8.self)
        }
        let message = DataMessage(body: inline.isEmpty ? nil : inline, attachments: pointers, quote: loaded.quote)
        let serverTimestamp = try await delivery.deliver(MessageContent(dataMessage: message), to: loaded.recipient,
                                                         timestamp: loaded.timestamp, as: loaded.credentials)
        // The copy for this account's other devices ("sender can read own history").
        try await delivery.deliver(MessageContent(sentTranscript: SentTranscript(destinationAccountId: loaded.recipient, message: message)),
                                   to: loaded.credentials.accountId, timestamp: loaded.timestamp, as: loaded.credentials)
        try await database.awaitableWrite { db in
            try ConversationStore.setStatus(.sent, messageId: job.messageId, db)
            try db.execute(sql: "UPDATE messages SET server_timestamp = ? WHERE id = ?", arguments: [serverTimestamp.map(Int64.init), job.messageId])
        }
        // The post-send store, only now that the send succeeded, off the send's path.
        signatures?.storeInBackground(checked)
    }

    private func upload(_ file: URL, rowId: Int64?, name: String?, contentType: String, as credentials: DeviceCredentials,
                        progress: @escaping TransferProgress) async throws -> AttachmentPointer {
        try FileManager.default.createDirectory(at: attachmentDirectory, withIntermediateDirectories: true)
        let blobFile = attachmentDirectory.appendingPathComponent("upload-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: blobFile) }
        let encrypted = try AttachmentFileEncryption.encrypt(file, to: blobFile)
        let label = name ?? file.lastPathComponent
        let blobSize = Int64(AttachmentEncryptor.blobSize(plaintextLength: encrypted.plaintextLength))
        let stored = try await api.uploadAttachment(fileAt: blobFile, as: credentials) { sent in progress(label, sent, blobSize) }
        let pointer = AttachmentPointer(id: stored.id, key: Data(encrypted.keys.combined).base64EncodedString(),
                                        digest: Data(encrypted.digest).base64EncodedString(), size: encrypted.plaintextLength,
                                        contentType: contentType, fileName: name)
        if let rowId {
            try await database.awaitableWrite { db in
                try db.execute(sql: "UPDATE attachments SET server_id = ?, keys = ?, digest = ?, state = 'uploaded' WHERE id = ?",
                               arguments: [stored.id, Data(encrypted.keys.combined), Data(encrypted.digest), rowId])
            }
        }
        return pointer
    }
}
