import Foundation
import HTTPTypes
import ParleyAPI

/// The send path behind every front door (`PUT /v1/messages/{account}` over HTTP and as a socket request frame): the
/// sender's rate limit, the recipient's device list checked with 409/410 answers the sender repairs from, envelopes
/// built and stored for every recipient device in one transaction (shared with concurrent sends: group commit), then
/// handed to connected sockets. A send that carries an ``IdempotencyKey`` is stored once: its repeats get the first
/// answer.
struct SendService: Sendable {
    let store: any AccountStore & MailboxStore
    /// Stores envelopes in shared transactions (group commit).
    let writer: EnvelopeGroupCommit
    let limits: ServerLimits
    let hub: DeliveryHub
    let rateLimiter: RateLimiter
    let metrics: ServerMetrics
    /// Wakes the recipient devices no socket of this process took the envelopes for.
    let push: PushNotifier

    /// What a send came to (each front door presents it with the HTTP route's status and body).
    enum Outcome: Sendable {
        /// Stored for every device at this server time (200).
        case accepted(SendMessagesResponse)
        /// The device list was wrong (409).
        case mismatched(MismatchedDevicesResponse)
        /// Devices were re-registered (410).
        case stale(StaleDevicesResponse)

        /// The HTTP status every door answers with.
        var status: HTTPResponse.Status {
            switch self {
            case .accepted: return .ok
            case .mismatched: return .conflict
            case .stale: return .gone
            }
        }

        /// The JSON body every door answers with.
        var body: any Encodable & Sendable {
            switch self {
            case .accepted(let response): return response
            case .mismatched(let response): return response
            case .stale(let response): return response
            }
        }
    }

    /// Sends `request` to every device of `accountId` (the sender's own other devices when it is the sender's account).
    ///
    /// With device credentials the envelopes name the sending device, except sealed-sender ones (type 6). With an
    /// unidentified access key the key must match the recipient's (or the recipient allows anyone), every message must
    /// be sealed sender, and nothing about the sender is stored: a wrong key, or an account that does not exist, is
    /// 401 and stores nothing.
    ///
    /// With an `idempotencyKey` the send is stored once: a repeat (same key from the same device, or, without
    /// credentials, to the same recipient) is answered with the first send's 200 and stores nothing, even when the
    /// device list changed meanwhile; a repeat naming another recipient or timestamp is 422. Only accepted sends keep
    /// their key (a 409 or 410 stored nothing, so the repaired send may use it again).
    func send(
        _ request: SendMessagesRequest, to accountId: String, from authorization: SendAuthorization,
        idempotencyKey: IdempotencyKey? = nil
    ) async throws -> Outcome {
        let caller: AuthenticatedDevice?
        switch authorization {
        case .device(let device):
            try rateLimiter.take("send", accountId: device.account.id, policy: limits.rateLimits.send)
            caller = device
        case .unidentifiedAccess(_, let clientAddress):
            try takeUnidentifiedSendToken(from: clientAddress)
            caller = nil
        }
        guard request.timestamp <= UInt64(Int64.max) else { throw ServerError.badRequest("timestamp is out of range") }
        if caller == nil, let key = idempotencyKey { try key.requireUnguessable() }
        let found = accountId.utf8.count <= 64 ? try await store.accountWithDevices(id: accountId.lowercased()) : nil
        let idempotency = found.flatMap { found in
            idempotencyKey.map { key in
                Idempotency(
                    scope: caller.map { IdempotencyRecord.deviceScope(accountId: $0.account.id, deviceId: $0.device.deviceId) }
                        ?? "unidentified:\(found.account.id)",
                    key: key.value, fingerprint: "\(found.account.id):\(request.timestamp)")
            }
        }
        // A repeat gets the first answer before anything else is checked: a retry must not be refused, and then sent
        // another way, for something that changed since the first send stored the message (an access key rotated).
        if let first = try await firstAnswer(to: idempotency) { return .accepted(SendMessagesResponse(serverTimestamp: first)) }
        if case .unidentifiedAccess(let key, let clientAddress) = authorization {
            // Without credentials an unknown account looks like a wrong key: the route says nothing about who exists.
            guard let recipient = found?.account, Self.allowsUnidentifiedAccess(recipient, key: key) else { throw ServerError.unauthorized }
            try takeUnidentifiedSendToken(to: recipient.id, from: clientAddress)
            guard request.messages.allSatisfy({ $0.type == EnvelopeType.unidentifiedSender.rawValue }) else {
                throw ServerError.badRequest("a send without credentials carries only sealed-sender messages (type 6)")
            }
        }
        guard let (recipient, recipientDevices) = found else { throw ServerError.notFound("no account \(accountId)") }
        var devices = recipientDevices
        if let caller, recipient.id == caller.account.id { devices.removeAll { $0.deviceId == caller.device.deviceId } }
        let requested = request.messages.map(\.destinationDeviceId)
        guard Set(requested).count == requested.count else { throw ServerError.badRequest("a device appears twice") }
        if let mismatch = Self.mismatch(requested: requested, devices: devices) { return .mismatched(mismatch) }
        let stale = request.messages.filter { message in
            devices.first { $0.deviceId == message.destinationDeviceId }?.registrationId != message.destinationRegistrationId
        }.map(\.destinationDeviceId)
        if !stale.isEmpty { return .stale(StaleDevicesResponse(staleDevices: stale.sorted())) }

        let now = ServerClock.milliseconds()
        let envelopes = try request.messages.map { message -> StoredEnvelope in
            guard let type = EnvelopeType(rawValue: message.type) else {
                throw ServerError.badRequest("unknown message type \(message.type)")
            }
            let content = try KeyValidation.bytes(message.content, field: "content")
            guard !content.isEmpty, content.count <= limits.messageBytes else {
                throw ServerError.badRequest("content must be 1…\(limits.messageBytes) bytes")
            }
            // A sealed-sender envelope never records its source, however it was sent.
            let source = type == .unidentifiedSender ? nil : caller
            return StoredEnvelope(
                guid: UUID().uuidString.lowercased(), accountId: recipient.id, deviceId: message.destinationDeviceId,
                sourceAccountId: source?.account.id, sourceDeviceId: source?.device.deviceId, type: type.rawValue,
                content: content, timestamp: request.timestamp, serverTimestamp: now)
        }
        return .accepted(SendMessagesResponse(serverTimestamp: try await store(envelopes, idempotency: idempotency, now: now)))
    }

    /// Stores `envelopes` in one (shared) transaction with `idempotency`, counts them, hands them to connected sockets
    /// and has the other devices woken.
    /// - Returns: `false` when `idempotency`'s key was taken already: nothing was stored.
    @discardableResult
    func deliver(_ envelopes: [StoredEnvelope], idempotency: IdempotencyRecord? = nil) async throws -> Bool {
        guard try await writer.store(StoredSend(envelopes: envelopes, idempotency: idempotency)) else { return false }
        metrics.messagesAccepted.increment(by: Int64(envelopes.count))
        push.messagesWaiting(for: hub.publish(envelopes))
        return true
    }

    /// The 409 answer when `requested` is not exactly the ids of `devices` (missing and extra ids, sorted), else `nil`.
    static func mismatch(requested: [UInt32], devices: [StoredDevice]) -> MismatchedDevicesResponse? {
        let missing = devices.map(\.deviceId).filter { !requested.contains($0) }
        let extra = requested.filter { id in !devices.contains { $0.deviceId == id } }
        guard !missing.isEmpty || !extra.isEmpty else { return nil }
        return MismatchedDevicesResponse(missingDevices: missing.sorted(), extraDevices: extra.sorted())
    }

    /// The tokens a send without credentials takes for each recipient account: one of the bucket of this recipient and
    /// this client address, and one of the recipient's bucket for all addresses.
    func takeUnidentifiedSendToken(to recipientId: String, from clientAddress: String?) throws {
        try rateLimiter.take(
            "unidentified-send", recipient: recipientId, from: clientAddress,
            perAddress: limits.rateLimits.unidentifiedSendPerRecipientPerAddress,
            overall: limits.rateLimits.unidentifiedSendPerRecipient)
    }

    /// `tokens` tokens (one per recipient) of the per-address bucket for sends without credentials (none to take when
    /// the address is unknown).
    func takeUnidentifiedSendToken(from clientAddress: String?, tokens: Int = 1) throws {
        try rateLimiter.take(
            "unidentified-send", address: clientAddress, policy: limits.rateLimits.unidentifiedSendPerAddress, tokens: tokens)
    }

    /// Whether `key` opens `recipient`'s mailbox to a sealed-sender send: its unrestricted flag, or its access key,
    /// compared in constant time.
    static func allowsUnidentifiedAccess(_ recipient: StoredAccount, key: [UInt8]) -> Bool {
        if recipient.unrestrictedUnidentifiedAccess { return true }
        guard let expected = recipient.unidentifiedAccessKey else { return false }
        return UnidentifiedAccessKey.matches(expected, key)
    }
}
