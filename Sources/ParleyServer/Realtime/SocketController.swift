import Hummingbird
import HummingbirdWebSocket
import Logging
import ParleyAPI

/// `GET /v1/websocket`: authenticates the upgrade request with the device's credentials, then runs a ``SocketSession``.
/// A class for the reason ``SocketSession`` is one: each socket's suspended ``run(_:_:authorization:binaryFrames:logger:)`` keeps `self`.
final class SocketController: Sendable {
    let store: any MailboxStore
    let acknowledgements: AcknowledgementGroupCommit
    let authenticator: DeviceAuthenticator
    let hub: DeliveryHub
    let limits: ServerLimits
    let rateLimiter: RateLimiter
    let metrics: ServerMetrics
    /// The send path for request frames.
    let sender: SendService

    init(
        store: any MailboxStore, acknowledgements: AcknowledgementGroupCommit, authenticator: DeviceAuthenticator, hub: DeliveryHub,
        limits: ServerLimits, rateLimiter: RateLimiter,
        metrics: ServerMetrics, sender: SendService
    ) {
        self.store = store
        self.acknowledgements = acknowledgements
        self.authenticator = authenticator
        self.hub = hub
        self.limits = limits
        self.rateLimiter = rateLimiter
        self.metrics = metrics
        self.sender = sender
    }

    /// The HTTP side of the WebSocket route, for requests that were not upgraded.
    func addRoutes(to routes: ServerRoutes) {
        routes.device.get(RouterPath(APIRoutes.webSocket), use: refuse)
    }

    /// Upgrades only authenticated requests; the others fall through to the HTTP router's JSON answer.
    func shouldUpgrade(_ request: Request) async -> RouterShouldUpgrade {
        (try? await authenticator.authenticate(request)) == nil ? .dontUpgrade : .upgrade([:])
    }

    /// Runs the socket of the device `authorization` (the upgrade request's `Authorization` header) names. Only what
    /// the session needs is passed in, not the request: this call stays suspended for the socket's life.
    /// With `binaryFrames` (the upgrade asked for ``ParleyAPI/APIRoutes/binaryFramesQuery``) the socket speaks
    /// ``ParleyAPI/BinarySocketMessage``s, else JSON text ``ParleyAPI/SocketFrame``s.
    func run(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, authorization: String?, binaryFrames: Bool,
        logger: Logger
    ) async throws {
        let session = try await session(authorization: authorization, binaryFrames: binaryFrames, logger: logger)
        // A protocol violation (an oversized message, invalid UTF-8) is rethrown: the library closes with its code.
        if let error = await session.run(inbound: inbound, outbound: outbound) { throw error }
    }

    /// The session of the device `authorization` names. Out of line, so that what authenticating takes (the parsed
    /// credential, the device record) is not part of the frame ``run(_:_:authorization:binaryFrames:logger:)`` keeps
    /// for the socket's life.
    @inline(never)
    private func session(authorization: String?, binaryFrames: Bool, logger: Logger) async throws -> SocketSession {
        // Verified moments ago in shouldUpgrade; a second check costs one HMAC.
        let device = try await authenticator.authenticate(authorization: authorization)
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
    @Sendable func refuse(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        throw ServerError.badRequest("this route needs a WebSocket upgrade")
    }
}
