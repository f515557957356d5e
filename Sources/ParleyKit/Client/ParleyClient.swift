import AsyncHTTPClient
import Foundation
import Logging
import ParleyAPI
import ParleyHTTP
import ParleyProtocol
import Synchronization

/// A Parley account on this machine: its encrypted database, the server it talks to, and the pipelines between.
/// Everything the `parley` command does goes through here.
public final class ParleyClient: Sendable {
    /// The encrypted local database. Not API (every read and write goes through the client's methods): tools that show
    /// the inside, such as `parley-demo`, see it with `@_spi(Inspection) import ParleyKit`.
    @_spi(Inspection) public let database: ParleyDatabase
    /// The server's REST API. Not API: see ``database``.
    @_spi(Inspection) public let api: ParleyServerClient
    /// ParleyProtocol's stores over the database. Not API: see ``database``.
    @_spi(Inspection) public let store: DatabaseProtocolStore
    /// Registration and prekeys. Front doors use the account verbs (``register(username:deviceName:inviteToken:)``…).
    let accounts: AccountManager
    /// The send pipeline. Front doors use the verbs that send (``send(_:to:attempt:uploadProgress:)``…).
    let sender: MessageSender
    /// The receive pipeline. Front doors use ``receive(attempt:)``, ``listen(onOutcome:)`` and ``events()``.
    let receiver: MessageReceiver
    /// Server-stored groups. Front doors use ``createServerGroup(title:members:attempt:)`` and the other group verbs.
    let serverGroups: ServerGroups
    /// Duplicate content detection: attachment hashes against the server's hash banks (fails open).
    let contentDetection: ContentDetectionService
    /// Who is typing (in memory only).
    let typingIndicators: TypingIndicators
    /// The clock for timers (disappearing messages, typing), milliseconds since 1970.
    let now: @Sendable () -> UInt64
    let sweeper: ExpirationSweeper
    let delivery: MessageDelivery
    let retryReceipts: RetryReceipts
    let attachmentDirectory: URL
    /// This process's private directory for files in the making (``AttachmentStaging``), under `attachmentDirectory`.
    let staging: AttachmentStaging
    let logger: Logger
    /// The HTTP clients (the identified pool, the unidentified one) ``open(accountDirectory:server:passphrase:contentDetection:logger:)``
    /// made, closed by ``shutdown()``.
    let ownedHTTPClients = Mutex<[HTTPClient]>([])
    /// The durable job queue's runner.
    let jobs: JobRunner
    /// The subscribers of ``events()`` and what is published to them.
    let eventHub = ClientEvents()
    /// Account ids this process already asked the server to name (a 404 is not asked again).
    let askedForNames = Mutex<Set<String>>([])
    /// Whether this client asked the server if it should give its plain name up (``movePlainNameToUsernameIfAsked()``).
    let askedAboutPlainName = Mutex(false)
    /// The last pass of ``nameNewCorrespondents()``: each pass waits for the one before, so a caller returns only once
    /// every lookup begun before it has ended.
    let namingPass = Mutex<Task<Void, Never>?>(nil)
    /// This process's claim to receive for the account (``claimReceiving()``).
    let receivingLock: ReceivingLock
    /// The socket `listen` holds open, for sending ephemeral events on it.
    let liveSocket = Mutex<MessageSocket.Writer?>(nil)

    /// A client over `database`, talking to the server through `api`; attachments are staged in `attachmentDirectory`,
    /// checked against the hash banks of `contentDetectionServer` (the same server unless given) as
    /// `contentDetection` says. `now` is the clock for disappearing messages, typing indicators and pins (milliseconds;
    /// injectable for tests).
    public init(
        database: ParleyDatabase, api: ParleyServerClient, attachmentDirectory: URL,
        contentDetection: ContentDetectionConfiguration = ContentDetectionConfiguration(),
        contentDetectionServer: ParleyServerClient? = nil, logger: Logger = Logger(label: "parley"),
        now: @escaping @Sendable () -> UInt64 = { UInt64(Date().timeIntervalSince1970 * 1000) }
    ) {
        let store = DatabaseProtocolStore(now: now)
        let clock = MonotonicTimestamp(wallClock: now)
        let sessions = DeviceSessions(database: database, api: api, store: store)
        let accounts = AccountManager(database: database, api: api, store: store, now: now)
        let unidentified = UnidentifiedDelivery(database: database, accounts: accounts, store: store, now: now)
        let delivery = MessageDelivery(database: database, api: api, store: store, sessions: sessions, unidentified: unidentified, now: now)
        self.database = database
        self.api = api
        self.store = store
        self.delivery = delivery
        self.attachmentDirectory = attachmentDirectory
        receivingLock = ReceivingLock(directory: URL(fileURLWithPath: database.path).deletingLastPathComponent())
        let staging = AttachmentStaging(root: attachmentDirectory.appendingPathComponent("staging"))
        self.staging = staging
        self.logger = logger
        self.now = now
        typingIndicators = TypingIndicators(now: now)
        sweeper = ExpirationSweeper(database: database)
        self.accounts = accounts
        let detection = ContentDetectionService(api: contentDetectionServer ?? api, configuration: contentDetection) {
            try database.read(LocalAccount.credentials)
        }
        self.contentDetection = detection
        let groupDelivery = GroupDelivery(
            database: database, api: api, store: store, sessions: sessions, delivery: delivery,
            unidentified: unidentified, clock: clock)
        retryReceipts = RetryReceipts(database: database, delivery: delivery, groupDelivery: groupDelivery, clock: clock)
        sender = MessageSender(
            database: database, api: api, delivery: delivery, groupDelivery: groupDelivery, clock: clock,
            staging: staging, contentDetection: detection, now: now)
        let groups = ServerGroups(database: database, api: api, accounts: accounts, credentialCache: GroupCredentialCache(), now: now)
        self.serverGroups = groups
        receiver = MessageReceiver(database: database, store: store, clock: clock, wallClock: now, groups: groups)
        jobs = JobRunner(
            database: database, api: api, sender: sender, delivery: delivery, retryReceipts: retryReceipts, now: now,
            logger: logger, events: eventHub)
    }

    /// This device's credentials, or ``ParleyError/notRegistered``.
    public func credentials() throws -> DeviceCredentials { try database.read(LocalAccount.credentials) }

    /// The address of the server this client talks to.
    public var serverURL: String { api.baseURL }

    // MARK: Keys

    /// Uploads more one-time keys when the server runs low, rotates the signed prekey when it is due, and gives an
    /// account registered before profile keys one (``AccountManager/makeProfileKeyIfMissing()``); returns whether it
    /// uploaded anything. `listen` runs it after every drain, `parley receive` once per run.
    @discardableResult
    public func maintainKeys() async throws -> Bool {
        let refilled = try await accounts.refillPreKeysIfNeeded()
        let rotated = try await accounts.rotateSignedPreKeyIfDue()
        let madeProfileKey = try await accounts.makeProfileKeyIfMissing()
        // What lets others add this account to server-stored groups (published once per profile key; best effort).
        try? await accounts.publishProfileKeyCommitmentIfNeeded()
        // Once per client: a server that retired plain names has this account take a username (best effort).
        if askedAboutPlainName.withLock({ asked in
            defer { asked = true }
            return !asked
        }) {
            _ = try? await movePlainNameToUsernameIfAsked()
        }
        return refilled || rotated || madeProfileKey
    }

    // MARK: Receiving

    /// Drains the mailbox over HTTP: processes every pending envelope (each committed before it is acknowledged), one
    /// outcome per envelope, a stored message's followed by an ``ReceiveOutcome/acted(_:)`` for each peer's
    /// act that waited for it and applied now — the sequence ``listen(onOutcome:)`` reports.
    public func receiveOnce() async throws -> [ReceiveOutcome] {
        try await drainMailbox().flatMap(\.outcomes)
    }

    /// Receives once over HTTP: drains the mailbox (each envelope committed before it is acknowledged), then sends what
    /// is queued as `attempt` says (receipts, and — with ``DeliveryAttempt/everything`` — whatever waits out a backoff:
    /// the server answered, so it may be back), then, when `maintainingKeys`, looks after this device's keys (refills
    /// one-time keys, rotates the signed prekey; best effort). A front door that polls often (the daemon's `receive`)
    /// passes `false`: `listen` looks after the keys.
    public func receive(attempt: DeliveryAttempt = .everything, maintainingKeys: Bool = true) async throws -> ReceiveReport {
        let envelopes = try await drainMailbox()
        let jobs = try await runJobs(for: attempt)
        if maintainingKeys { _ = try? await maintainKeys() }
        return ReceiveReport(envelopes: envelopes, jobs: jobs)
    }

    /// ``receiveOnce()`` with each envelope's record apart: its outcome and the acts the message it stored released
    /// (to count envelopes, or tell an act applied now because its message came from one that came itself).
    func drainMailbox() async throws -> [ReceivedEnvelope] {
        let credentials = try credentials()
        try await requireTrustRoot()
        var received: [ReceivedEnvelope] = []
        // A server that keeps handing out the same envelopes (`more` and nothing new) cannot keep this loop going.
        var seen = Set<String>()
        while true {
            let page = try await api.mailbox(as: credentials)
            var fresh = false
            for envelope in page.messages where seen.insert(envelope.guid).inserted {
                fresh = true
                let result = try await receiver.receive(envelope)
                let record = ReceivedEnvelope(outcome: result.outcome, released: result.released)
                received.append(record)
                // Told as soon as it is committed: an acknowledgement that fails brings it back only as a duplicate.
                for outcome in record.outcomes { publish(outcome) }
                try await api.acknowledge(envelope.guid, as: credentials)
            }
            if !page.more || !fresh { break }
        }
        await nameNewCorrespondents()
        await checkOwnDevicesIfStale()
        return received
    }

    /// Asks whether this account has other devices when no other is known and the last answer is stale, while
    /// receiving (a request like those around it), so that a send finds the answer fresh and asks nothing beside its
    /// sealed message (``MessageDelivery/ownDevicesExist(as:ahead:)``). Best effort: a send asks itself when this failed.
    func checkOwnDevicesIfStale() async {
        guard let credentials = try? credentials() else { return }
        // An hour early: `listen` checks hourly, so a send never finds the answer stale before it does.
        _ = try? await delivery.ownDevicesExist(as: credentials, ahead: 60 * 60 * 1000)
    }

    /// Receives over the WebSocket until cancelled, reconnecting with backoff; `onOutcome` hears about each envelope
    /// after it is stored and acknowledged — a stored message's outcome followed by an ``ReceiveOutcome/acted(_:)``
    /// for each peer's act that waited for it and applied now (``ReceiveOutcome/held`` when it came). Jobs
    /// (receipts, sends, retries) run as soon as they are queued or due, and disappearing messages are swept, while it runs.
    public func listen(onOutcome: @escaping @Sendable (ReceiveOutcome) async -> Void = { _ in }) async throws {
        let credentials = try credentials()
        let queued = JobSignal()
        let observation = try database.observe(tables: ["jobs"]) { _ in queued.set() }
        let sweeping = Task { [sweeper, now, logger] in await sweeper.run(now: now, logger: logger) }
        // Whether the account has other devices is asked before any job runs (while the socket connects), then hourly: a
        // daemon's socket can stay up for days.
        let devicesChecked = Task { await self.checkOwnDevicesIfStale() }
        let working = Task { [jobs] in
            await devicesChecked.value
            await jobs.runWhenDue(queued)
        }
        let checkingDevices = Task {
            while (try? await Task.sleep(for: .seconds(3600))) != nil {
                await self.checkOwnDevicesIfStale()
            }
        }
        defer {
            observation.cancel()
            working.cancel()
            sweeping.cancel()
            checkingDevices.cancel()
            devicesChecked.cancel()
            liveSocket.withLock { $0 = nil }
        }
        var failures = 0
        while !Task.isCancelled {
            do {
                try await requireTrustRoot()
                try await MessageSocket(baseURL: api.baseURL, device: credentials, logger: logger).run { [receiver] frame, writer in
                    let first = self.liveSocket.withLock { live in
                        defer { live = writer }
                        return live == nil
                    }
                    if first { self.eventHub.publish(.connection(up: true)) }
                    switch frame.type {
                    case .envelope:
                        guard let envelope = frame.envelope else { return true }
                        let received = try await receiver.receive(envelope)
                        // Acts that arrived before the message they concern, heard of now that it is here.
                        let outcomes = [received.outcome] + received.released.map(ReceiveOutcome.acted)
                        // Subscribers hear of it once it is committed (an acknowledgement that fails brings it back
                        // only as a duplicate); `onOutcome` after the acknowledgement, as before.
                        for outcome in outcomes { self.publish(outcome) }
                        try await writer.acknowledge(envelope.guid)
                        self.note(received.outcome)
                        for outcome in outcomes { await onOutcome(outcome) }
                    case .ephemeral:
                        guard let event = frame.ephemeral else { return true }
                        let outcome = try await receiver.process(event)
                        self.note(outcome)
                        self.publish(outcome)
                        await onOutcome(outcome)
                    case .queueEmpty:
                        await self.nameNewCorrespondents()
                        await devicesChecked.value
                        _ = try? await self.runJobs()
                        _ = try? await self.maintainKeys()
                    default:
                        break
                    }
                    return !Task.isCancelled
                }
                failures = 0
                socketClosed()
            } catch {
                socketClosed()
                if Task.isCancelled { break }
                failures += 1
                // In words (the server's address and why), not the networking library's own text.
                let reason = error is ParleyError ? "\(error)" : TransportFailure.describe(error, server: api.baseURL)
                logger.warning("socket closed; reconnecting", metadata: ["error": "\(reason)", "attempt": "\(failures)"])
            }
            guard !Task.isCancelled else { break }
            try? await Task.sleep(for: .milliseconds(min(30_000, 500 << min(failures, 6))))
        }
    }

    /// Makes sure the sealed-sender trust root is known before anything is received (an account restored from a PIN
    /// backup by an earlier version has none): a sealed message that arrived without it could not be opened, and would
    /// be acknowledged and lost.
    /// - Throws: ``ParleyError/Server`` when it is unknown and the server cannot be asked.
    private func requireTrustRoot() async throws {
        try await accounts.learnTrustRootIfMissing()
    }

    /// Forgets the socket `listen` held; its subscribers hear that the connection went down, if it was up.
    private func socketClosed() {
        let wasUp = liveSocket.withLock { live in
            defer { live = nil }
            return live != nil
        }
        if wasUp { eventHub.publish(.connection(up: false)) }
    }

    /// Tells ``events()``'s subscribers what receiving did.
    private func publish(_ outcome: ReceiveOutcome) { eventHub.publish(.received(outcome)) }

    /// What happens to this account from now on, as long as the stream is kept: each message, receipt, act, typing
    /// indicator and group change received (by ``listen(onOutcome:)``, ``receive(attempt:)`` or any verb that receives),
    /// each send given up on, and `listen`'s connection going up and down. Every call is its own subscription; a
    /// subscriber that stops reading loses its oldest events past 1,000, never holds up receiving.
    public func events() -> AsyncStream<ClientEvent> { eventHub.subscribe() }

    private func note(_ outcome: ReceiveOutcome) {
        if case .typing(let accountId, _, let action, let groupId) = outcome {
            typingIndicators.record(action, from: accountId, in: groupId)
        }
    }

    // MARK: Disappearing messages

    /// Deletes every message whose disappearing timer ran out; returns how many. `listen` sweeps continuously,
    /// the `parley` command once per run.
    @discardableResult
    public func sweepExpiredMessages() throws -> Int { try sweeper.sweep(now: now()) }

    // MARK: Settings

    /// This client's settings.
    public func settings() throws -> ClientSettings {
        try database.read { db in try ClientSettings(db) }
    }

    /// Changes this client's settings.
    public func updateSettings(_ change: (inout ClientSettings) -> Void) throws {
        try database.write { db in
            var settings = try ClientSettings(db)
            change(&settings)
            try settings.save(db)
        }
    }

    /// Mutes the conversation `conversationId` until `until` (milliseconds since 1970; 0 unmutes).
    public func mute(conversationId: Int64, until: UInt64) throws {
        try database.write { db in try ConversationsTable.mute(conversationId: conversationId, until: until, db) }
    }

    /// The most conversations pinned at once (Signal's limit): the inbox's top stays a short list.
    public static let maximumPinnedConversations = 4

    /// Pins the conversation `conversationId` to the top of the inbox (above those pinned before it), or unpins it.
    /// Pinning one that is pinned already leaves its place. Kept on this device.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` when no conversation has that id, or when
    ///   ``maximumPinnedConversations`` are pinned already.
    public func pin(conversationId: Int64, _ pinned: Bool = true) throws {
        let at = now()
        try database.write { db in
            guard let summary = try ConversationsTable.summary(conversationId, db) else {
                throw ParleyError.invalidArgument("no conversation \(conversationId)")
            }
            guard pinned else { return try ConversationsTable.pin(conversationId: conversationId, at: 0, db) }
            guard !summary.isPinned else { return }
            guard try ConversationsTable.pinnedCount(db) < Self.maximumPinnedConversations else {
                throw ParleyError.invalidArgument(
                    "at most \(Self.maximumPinnedConversations) conversations can be pinned: unpin one first")
            }
            try ConversationsTable.pin(conversationId: conversationId, at: at, db)
        }
    }

    // MARK: Reading

    /// The inbox: one entry per conversation, pinned ones first (the latest pinned on top), then the most recent first.
    public func conversations() throws -> [ConversationSummary] {
        try database.read(ConversationsTable.summaries)
    }

    /// A page of the inbox: `limit` (1…1,000) entries from the `offset`th, in ``conversations()``'s order.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` for a limit out of range or a negative offset.
    public func conversations(offset: Int, limit: Int) throws -> [ConversationSummary] {
        guard (1...1000).contains(limit), offset >= 0 else { throw ParleyError.invalidArgument("limit must be 1…1000, offset 0 or more") }
        return try database.read { db in try ConversationsTable.summaries(offset: offset, limit: limit, db) }
    }

    /// How many conversations the inbox holds.
    public func conversationCount() throws -> Int {
        try database.read(ConversationsTable.count)
    }

    /// The inbox entry of conversation `id`, if there is one.
    public func conversation(id: Int64) throws -> ConversationSummary? {
        try database.read { db in try ConversationsTable.summary(id, db) }
    }

    /// A page of a conversation's history, newest first, older than message id `before`.
    public func history(conversationId: Int64, before: Int64? = nil, limit: Int = 50) throws -> MessagePage {
        try database.read { db in try MessageLookup.page(conversationId: conversationId, before: before, limit: limit, db) }
    }

    /// The newest `limit` (1…200) messages whose text contains `text` (1…200 characters; ASCII letters in any case), in
    /// every conversation; deleted messages and notices left out.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` for an empty or longer text, or a limit out of range.
    public func search(_ text: String, limit: Int = 50) throws -> [StoredMessage] {
        guard (1...200).contains(text.count) else { throw ParleyError.invalidArgument("search for 1…200 characters") }
        guard (1...200).contains(limit) else { throw ParleyError.invalidArgument("limit must be 1…200") }
        return try database.read { db in try MessageLookup.search(text, limit: limit, db) }
    }

    /// Messages that arrived with a local id above `cursor` — from others, and the copies of what this account sent
    /// from its other devices — oldest first, at most `limit` (1…1000): what a client that last saw message `cursor`
    /// missed, read from the database (everything `listen` stored meanwhile, whoever was listening). Undecryptable copies
    /// are left out; the id of the last one returned is the next cursor.
    public func receivedMessages(after cursor: Int64, limit: Int = 500) throws -> [StoredMessage] {
        guard (1...1000).contains(limit) else { throw ParleyError.invalidArgument("limit must be 1…1000") }
        let device = try credentials().deviceId
        return try database.read { db in try MessageLookup.received(after: cursor, exceptFromDevice: device, limit: limit, db) }
    }

    /// Every group this account is or was in.
    public func groups() throws -> [GroupInfo] {
        try database.read { db in try ConversationsTable.groups(db).map(GroupInfo.init) }
    }

    /// The group with id `groupId`, if this account is or was in it.
    public func group(id groupId: Data) throws -> GroupInfo? {
        try database.read { db in try ConversationsTable.group(id: groupId, db).map(GroupInfo.init) }
    }

    /// The 1:1 conversation with `accountId`, if any.
    public func conversationId(with accountId: String) throws -> Int64? {
        try database.read { db in try ConversationsTable.id(with: accountId, db) }
    }

    /// Marks a conversation read, starts the disappearing timers of the messages just read, and queues read
    /// receipts for them (unless turned off in ``ClientSettings/readReceipts``).
    func markRead(conversationId: Int64) throws {
        let now = self.now()
        try database.write { db in
            let unread = try MessagesTable.unreadIncoming(conversationId: conversationId, db)
            try MessagesTable.startTimersOfUnread(conversationId: conversationId, now: now, db)
            try Self.queueReadReceipts(for: unread, now: now, db)
            try MessagesTable.markRead(conversationId: conversationId, db)
        }
    }

    /// Marks messages `ids` read — those of them that are incoming and unread; the rest of their conversations stay as
    /// they are — starts their disappearing timers, and queues read receipts for them (unless turned off in
    /// ``ClientSettings/readReceipts``). A bot acknowledging the messages it handled marks those alone.
    func markRead(messageIds ids: [Int64]) throws {
        let now = self.now()
        try database.write { db in
            var unread: [(author: String, timestamp: UInt64)] = []
            for id in Set(ids) {
                guard let message = try MessagesTable.unreadIncoming(id: id, db) else { continue }
                unread.append(message)
                try MessagesTable.startTimer(messageId: id, now: now, db)
                try MessagesTable.markRead(id, db)
            }
            try Self.queueReadReceipts(for: unread, now: now, db)
        }
    }

    /// Queues read receipts for `messages` (unless turned off), one per author and at most as many timestamps each as
    /// a receiver takes.
    private static func queueReadReceipts(for messages: [(author: String, timestamp: UInt64)], now: UInt64, _ db: StorageTransaction) throws
    {
        guard try ClientSettings(db).readReceipts else { return }
        for (author, messages) in Dictionary(grouping: messages, by: \.author) {
            let timestamps = messages.map(\.timestamp).sorted()
            for start in stride(from: 0, to: timestamps.count, by: MessageContent.maximumReceiptTimestamps) {
                let batch = Array(timestamps[start..<min(start + MessageContent.maximumReceiptTimestamps, timestamps.count)])
                try JobQueue.enqueue(.receipt(MessageReceiver.ReceiptJob(accountId: author, kind: "read", timestamps: batch)), now: now, db)
            }
        }
    }

    // MARK: Trust

    /// The safety number with `accountId` (60 digits in groups of five), as both sides compute it.
    public func safetyNumber(with accountId: String) throws -> String {
        try fingerprint(with: accountId).displayable.grouped
    }

    /// The safety number with `accountId` in its scannable form (Signal's `CombinedFingerprints` protobuf), for a QR code
    /// the other device reads with its camera.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` when no identity is known for them yet.
    public func scannableSafetyNumber(with accountId: String) throws -> Data {
        try fingerprint(with: accountId).scannable.encoding
    }

    /// The fingerprint of this account's identity and `accountId`'s (version 1, 5,200 iterations, account ids as
    /// identifiers).
    private func fingerprint(with accountId: String) throws -> Fingerprint {
        try database.read { db in
            let context = TransactionContext(db)
            let local = try store.identityKeyPair(context: context).publicKey
            let credentials = try LocalAccount.credentials(db)
            guard let remote = try store.identity(for: try ProtocolAddress(name: accountId, deviceId: 1), context: context) else {
                throw ParleyError.invalidArgument("no identity known for \(accountId) yet: exchange a message first")
            }
            return try NumericFingerprintGenerator(iterations: 5200).create(
                version: 1, localIdentifier: Array(credentials.accountId.utf8), localKey: local,
                remoteIdentifier: Array(accountId.utf8), remoteKey: remote.publicKey)
        }
    }

    /// Accepts `accountId`'s current identity after a change; blocked sends can be retried.
    public func acceptIdentity(of accountId: String) throws {
        try database.write { db in try store.acceptIdentity(for: accountId, in: db) }
    }

    /// This account's devices, from the server.
    public func devices() async throws -> [DeviceInfo] {
        try await api.devices(as: try credentials()).devices
    }

    /// Removes device `deviceId` from the account (from the primary device: any linked device; from a linked
    /// device: itself). Its mailbox and keys go with it; senders learn of it from the server's 409 (an extra device), or a
    /// 410 when a new device has been given its id, and drop its sessions and what it held of their sender keys.
    public func removeDevice(_ deviceId: UInt32) async throws {
        try await api.removeDevice(deviceId, as: try credentials())
    }
}
