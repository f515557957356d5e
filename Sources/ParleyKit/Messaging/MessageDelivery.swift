import Foundation
import ParleyAPI
import ParleyProtocol

/// Encrypts one ``MessageContent`` for every device of an account and sends it — sealed when the recipient's access
/// key is known (``UnidentifiedDelivery``), else with this device's credentials — repairing the device list on
/// 409 (missing / extra devices) and 410 (stale devices) until the server accepts it. Data messages carry this
/// account's profile key, and what was sent is kept in the ``MessageSendLog`` for one resend on a retry receipt.
struct MessageDelivery: Sendable {
    let database: ParleyDatabase
    let api: ParleyServerClient
    let store: DatabaseProtocolStore
    let sessions: DeviceSessions
    let unidentified: UnidentifiedDelivery
    /// Wall-clock milliseconds (the send log's age).
    let now: @Sendable () -> UInt64

    /// Repairs allowed per delivery before giving up.
    static let maximumRepairs = 5

    /// Sends `content` to every device of `accountId` (to one's own account: every other own device; nothing is sent
    /// when there is none). Returns the server timestamp, or `nil` when there was no device to send to.
    @discardableResult
    func deliver(_ content: MessageContent, to accountId: String, timestamp: UInt64, as credentials: DeviceCredentials) async throws
        -> UInt64?
    {
        let (profileKey, username) = try database.read { db in
            (try AccountManager.storedProfileKey(db), try SettingsTable.value(SettingsTable.username, db))
        }
        // Everything but typing (never stored by the server, never asked for again) can be resent on request.
        // A sync transcript to one's own account has the message's timestamp: it is another send than the message.
        return try await deliver(
            plaintext: try content.sharing(profileKey, username: username).encode(), to: accountId, timestamp: timestamp,
            log: content.typing == nil ? .direct : nil, purpose: content.sentTranscript == nil ? "message" : "transcript",
            as: credentials)
    }

    /// Sends the encoded content `plaintext` to every device of `accountId` (see ``deliver(_:to:timestamp:as:)``),
    /// keeping it in the send log as `log` says (`nil`: not at all). `purpose` tells this send from another of the same
    /// timestamp to the same account (``SendIdempotencyKey``).
    @discardableResult
    func deliver(
        plaintext: [UInt8], to accountId: String, timestamp: UInt64, log: MessageSendLog.Kind?, purpose: String = "message",
        as credentials: DeviceCredentials
    ) async throws -> UInt64? {
        if accountId != credentials.accountId, try sessions.devices(of: accountId).isEmpty {
            try await sessions.establish(accountId, deviceIds: nil, as: credentials)
        }
        // To this account's own devices only when it has any: no empty send beside every message (see
        // ``ownDevicesExist(as:ahead:)``).
        if accountId == credentials.accountId, try await !ownDevicesExist(as: credentials) { return nil }
        let (serverTimestamp, sent) = try await send(
            to: accountId, timestamp: timestamp, as: credentials,
            log: log.map { ($0, plaintext) }, purpose: purpose
        ) { devices in
            do {
                return try await encrypt(plaintext, for: accountId, devices: devices, as: credentials)
            } catch SignalError.sessionNotFound {
                // A session archived after a retry receipt (or lost): rebuilt from a fresh bundle, then encrypted again.
                let rebuilt = try await sessions.withCurrentSessions(accountId, devices: devices, as: credentials)
                return try await encrypt(plaintext, for: accountId, devices: rebuilt, as: credentials)
            }
        }
        return sent == 0 ? nil : serverTimestamp
    }

    /// Sends what `messages` makes for the devices of `accountId` this client knows (without this device) and
    /// repairs the device list on 409 (missing / extra devices) and 410 (re-installed devices: ``DeviceSessions/remove(_:deviceIds:)``
    /// also forgets the sender keys they held) until the server accepts it. To one's own account it is called only when
    /// another device is known (``ownDevicesExist(as:ahead:)``); when repairs leave none, nothing more is sent.
    ///
    /// The messages go sealed when ``UnidentifiedDelivery`` allows it; when the server refuses the access key (401)
    /// that is remembered and the same sealed messages go with this device's credentials instead. `log` is what to
    /// keep in the send log for every device the messages reached (`groupId` names a group message's group).
    ///
    /// Every attempt carries the same ``SendIdempotencyKey`` (of `purpose`, `accountId` and `timestamp`): when an
    /// answer is lost and the job runs again, the server answers the repeat with the first 200 and stores nothing.
    ///
    /// - Returns: the server timestamp and how many per-device messages went out.
    func send(
        to accountId: String, timestamp: UInt64, as credentials: DeviceCredentials,
        log: (MessageSendLog.Kind, [UInt8])? = nil, groupId: Data? = nil,
        purpose: String = "message",
        messages: ([(deviceId: UInt32, registrationId: UInt32)]) async throws -> [OutgoingMessage]
    )
        async throws -> (serverTimestamp: UInt64, sent: Int)
    {
        let own = accountId == credentials.accountId
        let key = SendIdempotencyKey.make(
            purpose: purpose, recipient: accountId, timestamp: timestamp, deviceId: credentials.deviceId,
            secret: try database.read(SendIdempotencyKey.secret))
        let self_ = DeviceAddress(accountId: credentials.accountId, deviceId: credentials.deviceId)
        var access = try await unidentified.access(to: accountId, as: credentials)
        for attempt in 0...Self.maximumRepairs {
            let devices = try sessions.devices(of: accountId).filter { !(own && $0.deviceId == credentials.deviceId) }
            // A repair that removed this account's last other device: an empty send would only name this device.
            if own, devices.isEmpty, attempt > 0 { return (0, 0) }
            var outgoing = try await messages(devices)
            if let sealedAccess = access {
                outgoing = try unidentified.seal(
                    outgoing, to: accountId, certificate: sealedAccess.certificate,
                    contentHint: log == nil ? .default : .resendable, groupId: groupId)
            }
            let request = SendMessagesRequest(messages: outgoing, timestamp: timestamp)
            // The empty send to this account's own devices stores nothing, so it needs no key (and leaves no record).
            let key = outgoing.isEmpty ? nil : key
            let outcome: SendOutcome
            if let sealedAccess = access {
                do {
                    outcome = try await api.send(request, to: accountId, accessKey: sealedAccess.key, idempotencyKey: key)
                } catch ParleyError.server(let error) where error.status == 401 {
                    try await unidentified.refuse(accountId)
                    access = nil
                    outcome = try await api.send(request, to: accountId, as: credentials, idempotencyKey: key)
                }
            } else {
                outcome = try await api.send(request, to: accountId, as: credentials, idempotencyKey: key)
            }
            switch outcome {
            case .sent(let serverTimestamp):
                if let (kind, plaintext) = log {
                    let now = now()
                    try await database.awaitableWrite { [outgoing] db in
                        try MessageSendLog.record(
                            plaintext, kind: kind, to: accountId, devices: outgoing.map(\.destinationDeviceId),
                            timestamp: timestamp, now: now, db)
                    }
                }
                return (serverTimestamp, outgoing.count)
            case .mismatchedDevices(let mismatch):
                if !mismatch.extraDevices.isEmpty { try await sessions.remove(accountId, deviceIds: mismatch.extraDevices) }
                if !mismatch.missingDevices.isEmpty {
                    try await sessions.establish(accountId, deviceIds: mismatch.missingDevices, except: self_, as: credentials)
                }
            case .staleDevices(let stale):
                try await sessions.remove(accountId, deviceIds: stale.staleDevices)
                try await sessions.establish(accountId, deviceIds: stale.staleDevices, as: credentials)
            }
        }
        throw ParleyError.invalidArgument("the device list of \(accountId) kept changing; try again")
    }

    /// `content` encrypted for every device of `accountId` this client has a session with (no bundle fetches, no
    /// repairs): the copies of an ephemeral event. Empty when there is no session yet.
    func ephemeralCopies(_ content: MessageContent, to accountId: String, as credentials: DeviceCredentials) async throws
        -> [OutgoingMessage]
    {
        let devices = try sessions.devices(of: accountId).filter {
            !(accountId == credentials.accountId && $0.deviceId == credentials.deviceId)
        }
        return try await encrypt(try content.encode(), for: accountId, devices: devices, as: credentials)
    }

    private func encrypt(
        _ plaintext: [UInt8], for accountId: String, devices: [(deviceId: UInt32, registrationId: UInt32)],
        as credentials: DeviceCredentials
    ) async throws -> [OutgoingMessage] {
        // This device's address rides in pre-key messages (SignalMessage field 6, under the MAC).
        let local = try ProtocolAddress(name: credentials.accountId, deviceId: credentials.deviceId)
        return try await database.awaitableWrite { [store] db -> [OutgoingMessage] in
            if try store.identityNeedsAcceptance(for: accountId, in: db) { throw ParleyError.untrustedIdentity(address: accountId) }
            return try devices.map { device in
                let address = try ProtocolAddress(name: accountId, deviceId: device.deviceId)
                let ciphertext: CiphertextMessage
                do {
                    ciphertext = try signalEncrypt(
                        message: plaintext, for: address, localAddress: local, sessionStore: store,
                        identityStore: store, context: TransactionContext(db))
                } catch SignalError.untrustedIdentity {
                    throw ParleyError.untrustedIdentity(address: accountId)
                }
                return OutgoingMessage(
                    destinationDeviceId: device.deviceId, destinationRegistrationId: device.registrationId,
                    type: ciphertext.messageType.rawValue, content: ciphertext.serialize().base64EncodedString())
            }
        }
    }
}
