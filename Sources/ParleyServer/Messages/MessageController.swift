import Foundation
import HTTPTypes
import Hummingbird
import ParleyAPI

/// Per-device mailboxes over HTTP: send (the rules in ``SendService``), fetch, acknowledge.
struct MessageController: Sendable {
    let store: any MailboxStore
    let limits: ServerLimits
    let sender: SendService
    let metrics: ServerMetrics

    func addRoutes(to routes: ServerRoutes) {
        // PUT names the recipient account, DELETE an envelope: one path parameter name for both.
        routes.sender.put(RouterPath(APIRoutes.multiRecipientMessagesPath), use: sendMultiRecipient)
        routes.sender.put(RouterPath(APIRoutes.messages(to: "{id}")), use: send)
        routes.device.get(RouterPath(APIRoutes.mailbox), use: fetch)
        routes.device.delete(RouterPath(APIRoutes.acknowledge(guid: "{id}")), use: acknowledge)
    }

    @Sendable func send(_ request: Request, context: SenderRequestContext) async throws -> Response {
        let accountId = try context.pathParameter("id")
        let key = try Self.idempotencyKey(of: request)
        let body = try await JSONCoding.decode(SendMessagesRequest.self, from: request, limit: limits.sendBodyBytes)
        let outcome = try await sender.send(body, to: accountId, from: context.authorization, idempotencyKey: key)
        return try JSONCoding.response(outcome.body, status: outcome.status)
    }

    /// `PUT /v1/messages/multi_recipient?ts=`: a sealed sender v2 message, sent without credentials.
    @Sendable func sendMultiRecipient(_ request: Request, context: SenderRequestContext) async throws -> Response {
        guard case .unidentifiedAccess(let key, let clientAddress) = context.authorization else {
            throw ServerError.badRequest("multi-recipient messages are sent without credentials, with Unidentified-Access-Key")
        }
        guard let text = request.uri.queryParameters["ts"], let timestamp = UInt64(text) else {
            throw ServerError.badRequest("ts must be the sender's timestamp in milliseconds")
        }
        let idempotencyKey = try Self.idempotencyKey(of: request)
        let body = try await JSONCoding.body(of: request, limit: limits.multiRecipientBodyBytes)
        let outcome = try await sender.sendMultiRecipient(
            body, timestamp: timestamp, accessKey: key, clientAddress: clientAddress,
            idempotencyKey: idempotencyKey)
        return try JSONCoding.response(outcome.body, status: outcome.status)
    }

    /// The request's `Idempotency-Key`, if it has one.
    private static func idempotencyKey(of request: Request) throws -> IdempotencyKey? {
        try IdempotencyKey(header: request.headers[values: HTTPField.Name(IdempotencyKey.headerName)!].first)
    }

    @Sendable func fetch(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let caller = context.device
        let page = limits.envelopesPerFetch
        let notBefore = limits.oldestKept(now: ServerClock.milliseconds())
        let pending = try await store.pendingEnvelopes(
            accountId: caller.account.id, deviceId: caller.device.deviceId, notBefore: notBefore, limit: page + 1)
        let envelopes = pending.prefix(page).map(Envelope.init(stored:))
        return try JSONCoding.response(EnvelopeListResponse(messages: Array(envelopes), more: pending.count > page))
    }

    @Sendable func acknowledge(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let caller = context.device
        let guid = try context.pathParameter("id")
        guard try await store.deleteEnvelope(guid: guid.lowercased(), accountId: caller.account.id, deviceId: caller.device.deviceId) else {
            throw ServerError.notFound("no envelope \(guid) in this device's mailbox")
        }
        metrics.messagesDelivered.increment()
        return Response(status: .noContent)
    }
}
