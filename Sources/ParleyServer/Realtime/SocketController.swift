import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import ParleyAPI

/// `GET /v1/websocket`: upgrades a request the connection's upgrade filter authenticated (its ``VerifiedUpgrades``
/// ticket names the device: one credential check per socket), then runs a ``SocketSession``.
/// A class for the reason ``SocketSession`` is one: each socket's suspended ``run(_:_:ticket:binaryFrames:logger:)`` keeps `self`.
final class SocketController: Sendable {
    let store: any MailboxStore
    let acknowledgements: AcknowledgementGroupCommit
    /// What the session checks a device against later (a disabled account's socket closes).
    let authenticator: DeviceAuthenticator
    /// The devices the upgrade filter authenticated, by ticket.
    let upgrades: VerifiedUpgrades
    let hub: DeliveryHub
    let limits: ServerLimits
    let rateLimiter: RateLimiter
    let metrics: ServerMetrics
    /// The send path for request frames.
    let sender: SendService

    init(
        store: any MailboxStore, acknowledgements: AcknowledgementGroupCommit, authenticator: DeviceAuthenticator,
        upgrades: VerifiedUpgrades, hub: DeliveryHub, limits: ServerLimits, rateLimiter: RateLimiter,
        metrics: ServerMetrics, sender: SendService
    ) {
        self.store = store
        self.acknowledgements = acknowledgements
        self.authenticator = authenticator
        self.upgrades = upgrades
        self.hub = hub
        self.limits = limits
        self.rateLimiter = rateLimiter
        self.metrics = metrics
        self.sender = sender
    }

    /// The HTTP side of the WebSocket route, for requests that were not upgraded.
    static func addRoutes(to routes: ServerRoutes) {
        routes.device.get(RouterPath(APIRoutes.webSocket), use: refuse)
    }

    /// The request header the upgrade filter leaves its ticket in.
    static let ticketField = HTTPField.Name(VerifiedUpgrades.header)!

    /// Upgrades only requests the upgrade filter authenticated (a valid ticket); the others fall through to the HTTP
    /// router's JSON answer.
    func shouldUpgrade(_ request: Request) -> RouterShouldUpgrade {
        upgrades.device(for: request.headers[Self.ticketField]) == nil ? .dontUpgrade : .upgrade([:])
    }

    /// Runs the socket of the device `ticket` (the upgrade request's ``VerifiedUpgrades`` ticket) names. Only what
    /// the session needs is passed in, not the request: this call stays suspended for the socket's life.
    /// With `binaryFrames` (the upgrade asked for ``ParleyAPI/APIRoutes/binaryFramesQuery``) the socket speaks
    /// ``ParleyAPI/BinarySocketMessage``s, else JSON text ``ParleyAPI/SocketFrame``s.
    func run(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, ticket: String?, binaryFrames: Bool,
        logger: Logger
    ) async throws {
        let session = try session(ticket: ticket, binaryFrames: binaryFrames, logger: logger)
        // A protocol violation (an oversized message, invalid UTF-8) is rethrown: the library closes with its code.
        if let error = await session.run(inbound: inbound, outbound: outbound) { throw error }
    }

    /// The session of the device `ticket` names (the ticket is used up). Out of line, so that what it takes is not part
    /// of the frame ``run(_:_:ticket:binaryFrames:logger:)`` keeps for the socket's life.
    @inline(never)
    private func session(ticket: String?, binaryFrames: Bool, logger: Logger) throws -> SocketSession {
        // The filter authenticated the upgrade moments ago; its ticket is good once.
        guard let device = upgrades.take(ticket) else { throw ServerError.unauthorized }
        return SocketSession(
            device: device, authenticator: authenticator, store: store, acknowledgements: acknowledgements, hub: hub, limits: limits,
            rateLimiter: rateLimiter, metrics: metrics,
            requests: SocketRequestHandler(device: device, sender: sender), binaryDeliveries: binaryFrames ? BinaryDeliveries() : nil,
            logger: logger)
    }

    /// Whether an upgrade request's query asks for binary frames (``ParleyAPI/APIRoutes/binaryFramesQuery`` among its
    /// `&`-separated parts).
    static func asksForBinaryFrames(_ query: String?) -> Bool {
        query?.split(separator: "&").contains { $0 == APIRoutes.binaryFramesQuery } ?? false
    }

    /// The answer to a `GET /v1/websocket` that was not upgraded: 401 without valid credentials, else 400.
    @Sendable static func refuse(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        throw ServerError.badRequest("this route needs a WebSocket upgrade")
    }
}
