import Foundation
import ParleyAPI
import ParleyProtocol

/// The send pipeline (the seed's `ThreadUtil.enqueueMessage`): validate, persist the message and its send job in
/// one transaction — from then on it survives any crash — then encrypt and send from the job.
struct MessageSender: Sendable {
    let database: ParleyDatabase
    let api: ParleyServerClient
    let delivery: MessageDelivery
    let groupDelivery: GroupDelivery
    let clock: MonotonicTimestamp
    /// Where encrypted uploads and long texts are written while they are sent (never left behind).
    let staging: AttachmentStaging
    /// Checks attachments before upload and records them after a successful send.
    let contentDetection: ContentDetectionService?
    /// The clock disappearing timers start on (milliseconds since 1970).
    let now: @Sendable () -> UInt64

    /// Text longer than this (UTF-8 bytes) travels as a text attachment with a truncated inline body.
    public static let inlineTextLimit = 2048
    /// Attempts before a send is marked failed.
    public static let maximumAttempts = 8

    /// What of `body` travels inline: all of it up to ``inlineTextLimit`` UTF-8 bytes, else the longest run of whole
    /// characters from its start that fits (never a character cut in two).
    static func inlinePart(of body: String) -> String {
        guard body.utf8.count > inlineTextLimit else { return body }
        var bytes = 0
        var end = body.startIndex
        for index in body.indices {
            let next = body.index(after: index)
            bytes += body.utf8.distance(from: index, to: next)
            guard bytes <= inlineTextLimit else { break }
            end = next
        }
        return String(body[..<end])
    }

    /// Hears how far an attachment transfer is.
    typealias TransferProgress = ParleyKit.TransferProgress

    struct SendJob: Codable, Sendable {
        let messageId: Int64
    }

    /// Stores an outgoing message to `accountId` with its send job; returns the message's local id.
    /// `attachments` are files to encrypt and upload when the job runs; `replyTo` is a local message id; `mentions` are
    /// ranges of `body` naming accounts (``Mention``).
    @discardableResult
    public func enqueue(
        body: String, to accountId: String, attachments: [URL] = [], replyTo: Int64? = nil,
        mentions: [Mention] = []
    ) throws -> Int64 {
        try enqueue(
            body: body, to: accountId, files: try attachments.map { try OutgoingAttachment(file: $0) }, replyTo: replyTo,
            mentions: mentions)
    }

    /// Stores an outgoing message to `username`, a name this device has not looked up and cannot look up now (the
    /// server is unreachable): it waits in a conversation with the name until the name is looked up
    /// (``PendingRecipients``), then is sent. Returns the message's local id.
    @discardableResult
    public func enqueue(
        body: String, toUnresolvedUsername username: String, files: [OutgoingAttachment] = [],
        replyTo: Int64? = nil, mentions: [Mention] = []
    ) throws -> Int64 {
        try enqueue(body: body, files: files, replyTo: replyTo, mentions: mentions, queueSend: false) { db, now in
            try ConversationsTable.oneToOne(with: try PendingRecipients.placeholder(for: username, db, now: now), now: now, db)
        }
    }

    /// Stores an outgoing message to `accountId` with its send job; returns the message's local id. `files` carry
    /// their metadata (type, voice note, duration, waveform) into the encrypted pointers.
    @discardableResult
    public func enqueue(
        body: String, to accountId: String, files: [OutgoingAttachment], replyTo: Int64? = nil,
        mentions: [Mention] = []
    ) throws -> Int64 {
        try enqueue(body: body, files: files, replyTo: replyTo, mentions: mentions) { db, now in
            try ConversationsTable.oneToOne(with: accountId, now: now, db)
        }
    }

    /// Stores an outgoing message to the group `groupId` with its send job (sent with Sender Keys); returns the
    /// message's local id.
    @discardableResult
    public func enqueue(
        body: String, toGroup groupId: Data, files: [OutgoingAttachment] = [], replyTo: Int64? = nil,
        mentions: [Mention] = []
    ) throws -> Int64 {
        try enqueue(body: body, files: files, replyTo: replyTo, mentions: mentions) { db, _ in
            guard let group = try ConversationsTable.group(id: groupId, db) else { throw ParleyError.invalidArgument("no such group") }
            guard !group.left else { throw ParleyError.invalidArgument("this account is no longer a member of “\(group.title)”") }
            if group.announcementsOnly, !group.administrators.contains(try LocalAccount.credentials(db).accountId) {
                throw ParleyError.invalidArgument("only administrators send messages in “\(group.title)”")
            }
            return group.conversationId
        }
    }

    private func enqueue(
        body: String, files: [OutgoingAttachment], replyTo: Int64?, mentions: [Mention], queueSend: Bool = true,
        conversation: (StorageTransaction, UInt64) throws -> Int64
    ) throws -> Int64 {
        guard !body.isEmpty || !files.isEmpty else { throw ParleyError.invalidArgument("a message needs text or an attachment") }
        try Mention.validate(mentions, in: body)
        // A long text travels as an attachment with its start inline; mentions travel with the inline part only.
        if !mentions.isEmpty {
            let inlineUnits = Self.inlinePart(of: body).utf16.count
            if let late = mentions.first(where: { !$0.fits(inlineUnits) }) {
                throw ParleyError.invalidArgument(
                    "a mention at \(late.start) is past the first \(Self.inlineTextLimit / 1024) KiB of a "
                        + "long text, which travels as an attachment without mentions")
            }
        }
        for file in files {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file.file.path, isDirectory: &isDirectory) else {
                throw ParleyError.invalidArgument("\(file.file.path) does not exist")
            }
            guard !isDirectory.boolValue else {
                throw ParleyError.invalidArgument("\(file.file.path) is a directory: attach files one by one")
            }
            guard FileManager.default.isReadableFile(atPath: file.file.path) else {
                throw ParleyError.invalidArgument("cannot read \(file.file.path): permission denied")
            }
        }
        let timestamp = clock.next()
        return try database.write { db in
            let credentials = try LocalAccount.credentials(db)
            let conversationId = try conversation(db, timestamp)
            var message = NewMessage(
                conversationId: conversationId, outgoing: true, authorAccountId: credentials.accountId,
                authorDeviceId: credentials.deviceId,
                timestamp: timestamp, body: body.isEmpty ? nil : body, status: .sending, replyToId: replyTo)
            message.expireTimer = try ConversationsTable.expireTimer(conversationId: conversationId, db)
            message.mentions = mentions
            guard let id = try MessagesTable.insert(message, db) else {
                throw ParleyError.invalidArgument("a message with this timestamp already exists")
            }
            for file in files {
                let size = (try? FileManager.default.attributesOfItem(atPath: file.file.path)[.size] as? NSNumber)?.intValue ?? 0
                try AttachmentsTable.insertOutgoing(file, size: size, messageId: id, db)
            }
            if queueSend { try JobQueue.enqueue(.send(SendJob(messageId: id)), now: timestamp, db) }
            return id
        }
    }

    // MARK: Acting on earlier messages

    /// Who a queued message goes to (besides this account's other devices, which get a transcript).
    enum Audience: Codable, Equatable {
        /// The other account of a 1:1 conversation.
        case account(String)
        /// A group's members, with Sender Keys (the group's conversation id).
        case group(conversationId: Int64)
        /// Each of these accounts 1:1 (group changes, which removed members must hear of too).
        case accounts([String])
    }

    /// A message that acts on earlier ones or on the conversation (reaction, edit, delete, timer, group change),
    /// queued for its audience and this account's other devices.
    struct ContentJob: Codable, Sendable {
        let audience: Audience
        let timestamp: UInt64
        let message: DataMessage
    }

    /// Reacts to message `messageId` with `emoji` (replacing this account's earlier reaction), or withdraws the
    /// reaction when `remove` is set. Returns the reaction's timestamp.
    @discardableResult
    public func react(_ emoji: String, to messageId: Int64, remove: Bool = false) throws -> UInt64 {
        guard remove || (emoji.count == 1 && emoji.utf8.count <= Reaction.maximumEmojiBytes) else {
            throw ParleyError.invalidArgument("a reaction is one emoji")
        }
        return try act(on: messageId) { target in
            DataMessage(
                body: nil,
                reaction: Reaction(
                    emoji: emoji, remove: remove, targetAuthorAccountId: target.author,
                    targetTimestamp: target.timestamp))
        }
    }

    /// Replaces the text of this account's message `messageId` (within 24 hours of sending), with the accounts the new
    /// text mentions; the earlier text is kept as history and the message shows as edited.
    @discardableResult
    public func edit(_ messageId: Int64, body: String, mentions: [Mention] = []) throws -> UInt64 {
        guard !body.isEmpty, body.utf8.count <= Self.inlineTextLimit else {
            throw ParleyError.invalidArgument("an edit is 1…\(Self.inlineTextLimit) bytes of text")
        }
        try Mention.validate(mentions, in: body)
        return try act(on: messageId) { target in DataMessage(body: body, mentions: mentions, editTarget: target.timestamp) }
    }

    /// Deletes this account's message `messageId` for everyone (within 24 hours of sending): every copy becomes
    /// a tombstone and its content is erased. Returns the deletion's timestamp.
    @discardableResult
    public func deleteForEveryone(_ messageId: Int64) throws -> UInt64 {
        let timestamp = try act(on: messageId) { target in DataMessage(body: nil, deleteTarget: target.timestamp) }
        database.truncateWriteAheadLog()
        return timestamp
    }

    /// Sets the conversation's disappearing-message timer (seconds, 0 turns it off) for both sides. Returns the
    /// change's timestamp.
    @discardableResult
    public func setExpireTimer(_ seconds: UInt32, with accountId: String) throws -> UInt64 {
        guard seconds <= DataMessage.maximumExpireTimer else { throw ParleyError.invalidArgument("a timer is at most one year") }
        let timestamp = clock.next()
        try database.write { db in
            try send(
                DataMessage(body: nil, expireTimer: seconds, isTimerUpdate: true), to: .account(accountId), peer: accountId,
                timestamp: timestamp, db)
        }
        return timestamp
    }

    private func act(on messageId: Int64, _ make: (_ target: (author: String, timestamp: UInt64)) -> DataMessage) throws -> UInt64 {
        let timestamp = clock.next()
        try database.write { db in
            guard let target = try MessagesTable.actTarget(messageId, db) else {
                throw ParleyError.invalidArgument("no message \(messageId)")
            }
            // Its send job would still deliver the original: act once it is out.
            guard target.status != .sending else {
                throw ParleyError.invalidArgument("message \(messageId) is still being sent; try again once it is sent")
            }
            var message = make((target.author, target.timestamp))
            if let peer = target.peer {
                try send(message, to: .account(peer), peer: peer, timestamp: timestamp, db)
            } else if let group = try ConversationsTable.group(conversationId: target.conversationId, db) {
                message.group = group.context
                try send(message, to: .group(conversationId: group.conversationId), peer: "", timestamp: timestamp, db)
            }
        }
        return timestamp
    }

    /// Applies `message` here (the same rules a receiver applies) and queues it for `audience`; a refusal throws
    /// and queues nothing. `peer` is the 1:1 conversation's other account ("" in a group).
    func send(_ message: DataMessage, to audience: Audience, peer: String, timestamp: UInt64, _ db: StorageTransaction) throws {
        let credentials = try LocalAccount.credentials(db)
        var message = message
        if !message.isTimerUpdate { message.expireTimer = 0 }
        let origin = ConversationActions.Origin(
            author: credentials.accountId, authorDevice: credentials.deviceId, timestamp: timestamp,
            serverTimestamp: nil, peer: peer, outgoing: true, status: .sent, now: timestamp,
            localAccountId: credentials.accountId)
        if case .rejected(let reason) = try ConversationActions.apply(message, from: origin, db) {
            throw ParleyError.invalidArgument(reason)
        }
        try JobQueue.enqueue(.content(ContentJob(audience: audience, timestamp: timestamp, message: message)), now: timestamp, db)
    }

    /// Runs one content job: to its audience, then a transcript to this account's other devices.
    func run(_ job: ContentJob) async throws {
        let credentials = try database.read(LocalAccount.credentials)
        let content = MessageContent(dataMessage: job.message)
        var destination = ""
        switch job.audience {
        case .account(let accountId):
            destination = accountId
            try await delivery.deliver(content, to: accountId, timestamp: job.timestamp, as: credentials)
        case .group(let conversationId):
            try await groupDelivery.deliver(content, toGroup: conversationId, timestamp: job.timestamp, as: credentials)
        case .accounts(let accountIds):
            for accountId in accountIds where accountId != credentials.accountId {
                do {
                    try await delivery.deliver(content, to: accountId, timestamp: job.timestamp, as: credentials)
                } catch let error as ParleyError where error.namesNoAccount {
                    continue  // a member whose account is gone: the others still hear of the change
                }
            }
        }
        try await delivery.deliver(
            MessageContent(sentTranscript: SentTranscript(destinationAccountId: destination, message: job.message)),
            to: credentials.accountId, timestamp: job.timestamp, as: credentials)
    }

    /// Runs one send job: uploads attachments, sends to the recipient's devices and a copy to this account's other
    /// devices, and marks the message sent. `progress` hears about attachment uploads.
    func run(_ job: SendJob, progress: @escaping TransferProgress = { _, _, _ in }) async throws {
        struct Loaded: Sendable {
            let credentials: DeviceCredentials
            let message: MessagesTable.Unsent
            let group: StoredGroup?
            let attachments: [AttachmentsTable.Outgoing]
        }
        let loaded = try database.read { db -> Loaded? in
            guard let message = try MessagesTable.unsent(job.messageId, db) else { return nil }
            return Loaded(
                credentials: try LocalAccount.credentials(db), message: message,
                group: try ConversationsTable.group(conversationId: message.conversationId, db),
                attachments: try AttachmentsTable.outgoing(of: job.messageId, db))
        }
        guard let loaded else { return }  // already sent or failed

        // The pre-send check: a hash in a blocking bank fails the send before anything is uploaded.
        var checked: [String] = []
        if let contentDetection, contentDetection.configuration.enabled {
            let pending = loaded.attachments.compactMap { attachment in attachment.pointer == nil ? attachment.path : nil }
            checked = try pending.map { try ContentDetectionService.hash(ofFileAt: URL(fileURLWithPath: $0)) }
            for (path, verdict) in zip(pending, await contentDetection.batchContains(checked)) where verdict.blocked {
                throw ParleyError.duplicateBlocked(fileName: URL(fileURLWithPath: path).lastPathComponent)
            }
        }
        var pointers: [AttachmentPointer] = []
        for attachment in loaded.attachments {
            if let pointer = attachment.pointer {
                pointers.append(pointer)
            } else if let path = attachment.path {
                var pointer = try await upload(
                    URL(fileURLWithPath: path), rowId: attachment.id, name: attachment.name,
                    contentType: attachment.metadata.contentType, as: loaded.credentials, progress: progress)
                pointer.durationMilliseconds = attachment.metadata.durationMilliseconds
                pointer.waveform = attachment.metadata.waveform
                pointer.voiceNote = attachment.metadata.voiceNote
                pointers.append(pointer)
            }
        }
        var inline = loaded.message.body
        if loaded.message.body.utf8.count > Self.inlineTextLimit {
            let file = try staging.file("long-text")
            defer { try? FileManager.default.removeItem(at: file) }
            try Data(loaded.message.body.utf8).write(to: file)
            pointers.append(
                try await upload(
                    file, rowId: nil, name: nil, contentType: "text/x-signal-plain", as: loaded.credentials,
                    progress: progress))
            inline = Self.inlinePart(of: loaded.message.body)
        }
        // A long text's mentions all fall in the inline part (enqueue refuses others); a row stored before that rule
        // loses the ones that do not.
        let inlineUnits = inline.utf16.count
        let mentions = loaded.message.mentions.filter { $0.fits(inlineUnits) }
        let message = DataMessage(
            body: inline.isEmpty ? nil : inline, mentions: mentions, attachments: pointers, quote: loaded.message.quote,
            expireTimer: loaded.message.expireTimer, group: loaded.group?.context)
        var accepted: UInt64?
        if let group = loaded.group {
            try await groupDelivery.deliver(
                MessageContent(dataMessage: message), toGroup: group.conversationId, timestamp: loaded.message.timestamp,
                as: loaded.credentials)
        } else if let recipient = loaded.message.recipient {
            accepted = try await delivery.deliver(
                MessageContent(dataMessage: message), to: recipient,
                timestamp: loaded.message.timestamp, as: loaded.credentials)
        }
        let serverTimestamp = accepted
        // The copy for this account's other devices ("sender can read own history").
        try await delivery.deliver(
            MessageContent(sentTranscript: SentTranscript(destinationAccountId: loaded.message.recipient ?? "", message: message)),
            to: loaded.credentials.accountId, timestamp: loaded.message.timestamp, as: loaded.credentials)
        try await database.awaitableWrite { db in
            // A sent message's disappearing timer starts now.
            try MessagesTable.markSent(job.messageId, serverTimestamp: serverTimestamp, now: self.now(), db)
        }
        // The post-send store, only now that the send succeeded, off the send's path.
        contentDetection?.storeInBackground(checked)
    }

    private func upload(
        _ file: URL, rowId: Int64?, name: String?, contentType: String, as credentials: DeviceCredentials,
        progress: @escaping TransferProgress
    ) async throws -> AttachmentPointer {
        let blobFile = try staging.file("upload")
        defer { try? FileManager.default.removeItem(at: blobFile) }
        let encrypted = try AttachmentFileEncryption.encrypt(file, to: blobFile)
        let label = name ?? file.lastPathComponent
        let blobSize = Int64(AttachmentEncryptor.blobSize(plaintextLength: encrypted.plaintextLength))
        let stored = try await api.uploadAttachment(fileAt: blobFile, as: credentials) { sent in progress(label, sent, blobSize) }
        let pointer = AttachmentPointer(
            id: stored.id, key: Data(encrypted.keys.combined).base64EncodedString(),
            digest: Data(encrypted.digest).base64EncodedString(), size: encrypted.plaintextLength,
            contentType: contentType, fileName: name)
        if let rowId {
            try await database.awaitableWrite { db in
                try AttachmentsTable.markUploaded(
                    rowId, serverId: stored.id, keys: Data(encrypted.keys.combined), digest: Data(encrypted.digest), db)
            }
        }
        return pointer
    }
}
