import Crypto
import Foundation
import HTTPTypes
import ParleyAPI
import ParleyProtocol

extension SendService {
    /// What a multi-recipient send came to (each front door presents it with this status and body).
    enum MultiRecipientOutcome: Sendable {
        /// Every recipient device's share stored at this server time (200).
        case accepted(MultiRecipientSendResponse)
        /// Recipients the server has no account for (404); nothing stored.
        case unknownRecipients(UnknownRecipientsResponse)
        /// Recipients whose device lists were wrong (409); nothing stored.
        case mismatched([AccountMismatchedDevices])
        /// Recipients with re-registered devices (410); nothing stored.
        case stale([AccountStaleDevices])

        /// The HTTP status every door answers with.
        var status: HTTPResponse.Status {
            switch self {
            case .accepted: return .ok
            case .unknownRecipients: return .notFound
            case .mismatched: return .conflict
            case .stale: return .gone
            }
        }

        /// The JSON body every door answers with.
        var body: any Encodable & Sendable {
            switch self {
            case .accepted(let response): return response
            case .unknownRecipients(let response): return response
            case .mismatched(let response): return response
            case .stale(let response): return response
            }
        }
    }

    /// Delivers a sealed sender v2 message (`body`, as the sender uploaded it) to every device it names, as Signal's
    /// server does: the recipients parsed from it, `accessKey` checked against the XOR of their unidentified access keys
    /// (recipients with unrestricted access left out of the XOR), each recipient's device list checked (all 409s, then
    /// all 410s, in one answer), and every device's share stored, without a source, in one transaction. The client address
    /// takes a token of its sealed-send bucket per recipient, as that many 1:1 sealed sends would.
    ///
    /// With an `idempotencyKey` (scoped to the set of recipients, whose senders choose unguessable keys) the message is
    /// stored once: a repeat gets the first 200, and one with another timestamp is 422.
    ///
    /// - Throws: ``ServerError/badRequest(_:)`` for a body that does not parse, too many recipients or a recipient that
    ///   is not an ACI; ``ServerError/unauthorized`` for a combined key that does not match.
    func sendMultiRecipient(
        _ body: [UInt8], timestamp: UInt64, accessKey: [UInt8], clientAddress: String?,
        idempotencyKey: IdempotencyKey? = nil
    ) async throws -> MultiRecipientOutcome {
        try takeUnidentifiedSendToken(from: clientAddress)
        guard timestamp <= UInt64(Int64.max) else { throw ServerError.badRequest("ts is out of range") }
        let message: SealedSenderMultiRecipientMessage
        do {
            message = try SealedSenderMultiRecipientMessage(bytes: body)
        } catch {
            throw ServerError.badRequest("not a sealed sender v2 message: \(error)")
        }
        guard !message.recipients.isEmpty, message.recipients.count <= limits.multiRecipientCount else {
            throw ServerError.badRequest("a multi-recipient message names 1…\(limits.multiRecipientCount) recipients")
        }
        // The key belongs to the set of recipients the message names (before any is looked up), and a repeat gets the
        // first answer before anything else is checked: a recipient deleted or a key rotated since the first send
        // must not turn the retry into a refusal the sender works around by sending again another way.
        try idempotencyKey?.requireUnguessable()
        let named = message.recipients.map { $0.0.serviceIdString }.sorted().joined(separator: ",")
        let idempotency = idempotencyKey.map { key in
            Idempotency(
                scope: "unidentified-multi:" + ContentHashFormat.hex(Array(SHA256.hash(data: Data(named.utf8)))),
                key: key.value, fingerprint: "multi:\(timestamp)")
        }
        if let first = try await firstAnswer(to: idempotency) { return .accepted(MultiRecipientSendResponse(serverTimestamp: first)) }
        // The address pays as for a send to each recipient (one token was taken to read the body): one request stores
        // up to six copies for each of a thousand recipients, and must not be a thousand times cheaper than 1:1 sends.
        // (At most a full bucket in all, so a bucket smaller than the largest send does not refuse it forever.)
        let rest = min(message.recipients.count, Int(limits.rateLimits.unidentifiedSendPerAddress.capacity)) - 1
        if rest > 0 { try takeUnidentifiedSendToken(from: clientAddress, tokens: rest) }
        var resolved: [(account: StoredAccount, devices: [StoredDevice], recipient: SealedSenderMultiRecipientMessage.Recipient)] = []
        var unknown: [String] = []
        for (serviceId, recipient) in message.recipients {
            guard serviceId.kind == .aci else { throw ServerError.badRequest("recipient \(serviceId.logString) is not an ACI") }
            let accountId = serviceId.rawUUID.uuidString.lowercased()
            guard let (account, devices) = try await store.accountWithDevices(id: accountId) else {
                unknown.append(accountId)
                continue
            }
            resolved.append((account, devices, recipient))
        }
        if !unknown.isEmpty { return .unknownRecipients(UnknownRecipientsResponse(uuids404: unknown)) }

        var combined = [UInt8](repeating: 0, count: UnidentifiedAccessKey.length)
        for (account, _, _) in resolved where !account.unrestrictedUnidentifiedAccess {
            guard let key = account.unidentifiedAccessKey, key.count == combined.count else { throw ServerError.unauthorized }
            for index in combined.indices { combined[index] ^= key[index] }
        }
        guard UnidentifiedAccessKey.matches(combined, accessKey) else { throw ServerError.unauthorized }
        for (account, _, _) in resolved {
            try takeUnidentifiedSendToken(to: account.id, from: clientAddress)
        }

        var mismatched: [AccountMismatchedDevices] = []
        var stale: [AccountStaleDevices] = []
        for (account, devices, recipient) in resolved {
            let requested = recipient.devices.map(\.deviceId)
            guard Set(requested).count == requested.count else { throw ServerError.badRequest("a device of \(account.id) appears twice") }
            if let mismatch = Self.mismatch(requested: requested, devices: devices) {
                mismatched.append(AccountMismatchedDevices(uuid: account.id, devices: mismatch))
                continue
            }
            // The message carries 14 bits of each registration id.
            let staleDevices = recipient.devices.filter { device in
                devices.first { $0.deviceId == device.deviceId }.map { UInt16($0.registrationId & 0x3FFF) != device.registrationId }
                    ?? false
            }.map(\.deviceId)
            if !staleDevices.isEmpty {
                stale.append(AccountStaleDevices(uuid: account.id, devices: StaleDevicesResponse(staleDevices: staleDevices.sorted())))
            }
        }
        if !mismatched.isEmpty { return .mismatched(mismatched) }
        if !stale.isEmpty { return .stale(stale) }

        let now = ServerClock.milliseconds()
        var envelopes: [StoredEnvelope] = []
        for (account, _, recipient) in resolved {
            let share = Array(message.messageForRecipient(recipient))
            guard share.count <= limits.messageBytes else {
                throw ServerError.badRequest("a recipient's message exceeds \(limits.messageBytes) bytes")
            }
            for device in recipient.devices {
                envelopes.append(
                    StoredEnvelope(
                        guid: UUID().uuidString.lowercased(), accountId: account.id, deviceId: device.deviceId, sourceAccountId: nil,
                        sourceDeviceId: nil, type: EnvelopeType.unidentifiedSender.rawValue, content: share, timestamp: timestamp,
                        serverTimestamp: now))
            }
        }
        return .accepted(MultiRecipientSendResponse(serverTimestamp: try await store(envelopes, idempotency: idempotency, now: now)))
    }
}
