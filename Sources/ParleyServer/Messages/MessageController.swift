import Foundation
import Hummingbird
import ParleyAPI

/// Per-device mailboxes over HTTP: send (the rules in ``SendService``), fetch, acknowledge.
struct MessageController: Sendable {
    let store: any ServerStore
    let authenticator: DeviceAuthenticator
    let limits: ServerLimits
    let sender: SendService
    let metrics: ServerMetrics

    func send(_ request: Request, to accountId: String) async throws -> Response {
        let caller = try await authenticator.authenticate(request)
        let body = try await JSONCoding.decode(SendMessagesRequest.self, from: request, limit: limits.sendBodyBytes)
        let outcome = try await sender.send(body, to: accountId, from: caller)
        return try JSONCoding.response(outcome.body, status: outcome.status)
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
