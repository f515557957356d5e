import Foundation
import Hummingbird
import ParleyAPI

/// Per-device mailboxes: send to every device of a recipient in one transaction, fetch, acknowledge.
struct MessageController: Sendable {
    let store: any ServerStore
    let authenticator: DeviceAuthenticator
    let limits: ServerLimits
    let hub: DeliveryHub
    let rateLimiter: RateLimiter
    let metrics: ServerMetrics

    func send(_ request: Request, to accountId: String) async throws -> Response {
        let caller = try await authenticator.authenticate(request)
        try rateLimiter.take("send", accountId: caller.account.id, policy: limits.rateLimits.send)
        let body = try await JSONCoding.decode(SendMessagesRequest.self, from: request, limit: limits.sendBodyBytes)
        guard body.timestamp <= UInt64(Int64.max) else { throw ServerError.badRequest("timestamp is out of range") }
        guard let (recipient, recipientDevices) = try await store.accountWithDevices(id: accountId.lowercased()) else {
            throw ServerError.notFound("no account \(accountId)")
        }
        var devices = recipientDevices
        if recipient.id == caller.account.id { devices.removeAll { $0.deviceId == caller.device.deviceId } }
        let requested = body.messages.map(\.destinationDeviceId)
        guard Set(requested).count == requested.count else { throw ServerError.badRequest("a device appears twice") }
        let missing = devices.map(\.deviceId).filter { !requested.contains($0) }
        let extra = requested.filter { id in !devices.contains { $0.deviceId == id } }
        if !missing.isEmpty || !extra.isEmpty {
            return try JSONCoding.response(MismatchedDevicesResponse(missingDevices: missing.sorted(), extraDevices: extra.sorted()), status: .conflict)
        }
        let stale = body.messages.filter { message in
            devices.first { $0.deviceId == message.destinationDeviceId }?.registrationId != message.destinationRegistrationId
        }.map(\.destinationDeviceId)
        if !stale.isEmpty { return try JSONCoding.response(StaleDevicesResponse(staleDevices: stale.sorted()), status: .gone) }

        let now = ServerClock.milliseconds()
        let envelopes = try body.messages.map { message -> StoredEnvelope in
            guard [2, 3, 7, 8].contains(message.type) else { throw ServerError.badRequest("unknown message type \(message.type)") }
            let content = try KeyValidation.bytes(message.content, field: "content")
            guard !content.isEmpty, content.count <= limits.messageBytes else {
                throw ServerError.badRequest("content must be 1…\(limits.messageBytes) bytes")
            }
            return StoredEnvelope(
                guid: UUID().uuidString.lowercased(), accountId: recipient.id, deviceId: message.destinationDeviceId,
                sourceAccountId: caller.account.id, sourceDeviceId: caller.device.deviceId, type: message.type,
                content: content, timestamp: body.timestamp, serverTimestamp: now)
        }
        try await store.storeEnvelopes(envelopes)
        metrics.messagesAccepted.increment(by: Int64(envelopes.count))
        hub.publish(envelopes)
        return try JSONCoding.response(SendMessagesResponse(serverTimestamp: now))
    }

    func fetch(_ request: Request) async throws -> Response {
        let caller = try await authenticator.authenticate(request)
        let page = limits.envelopesPerFetch
        let notBefore = ServerClock.milliseconds() &- limits.messageLifetimeMilliseconds
        let pending = try await store.pendingEnvelopes(
            accountId: caller.account.id, deviceId: caller.device.deviceId, notBefore: notBefore, limit: page + 1)
        let envelopes = pending.prefix(page).map(Envelope.init(stored:))
        return try JSONCoding.response(EnvelopeListResponse(messages: Array(envelopes), more: pending.count > page))
    }

    func acknowledge(_ request: Request, guid: String) async throws -> Response {
        let caller = try await authenticator.authenticate(request)
        guard try await store.deleteEnvelope(guid: guid.lowercased(), accountId: caller.account.id, deviceId: caller.device.deviceId) else {
            throw ServerError.notFound("no envelope \(guid) in this device's mailbox")
        }
        metrics.messagesDelivered.increment()
        return Response(status: .noContent)
    }
}
