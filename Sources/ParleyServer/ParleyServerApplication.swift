import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import ParleyAPI
import ServiceLifecycle

/// Builds the parley-server HTTP and WebSocket application from its dependencies; nothing global.
public enum ParleyServerApplication {
    /// The HTTP router: metrics and error middleware around every route; each controller registers its own routes in
    /// the group of the credentials they take (``ServerRoutes``).
    public static func makeRouter(_ dependencies: ServerDependencies, logger: Logger = Logger(label: "parley-server")) -> Router<
        ParleyRequestContext
    > {
        let d = dependencies
        let router = Router(context: ParleyRequestContext.self)
        if !d.limits.connections.trustedProxies.isEmpty {
            router.add(middleware: ForwardedClientMiddleware(trustedProxies: d.limits.connections.trustedProxies))
        }
        router.add(middleware: MetricsMiddleware(metrics: d.metrics, logger: logger))
        router.add(middleware: ErrorMiddleware())
        let routes = ServerRoutes(router: router, devices: d.authenticator, operators: d.operators)

        ServiceStatusController(store: d.store, metrics: d.metrics).addRoutes(to: routes)
        AccountController(
            store: d.store, hasher: d.hasher, limits: d.limits, rateLimiter: d.rateLimiter, deviceDirectory: d.deviceDirectory,
            registration: d.registration, sealedSender: d.sealedSender, plainAccountNames: d.plainAccountNames
        ).addRoutes(to: routes)
        UsernameController(usernames: d.usernames, limits: d.limits).addRoutes(to: routes)
        DeviceController(
            store: d.store, hasher: d.hasher, limits: d.limits, rateLimiter: d.rateLimiter, hub: d.hub, directory: d.deviceDirectory,
            pushTargets: d.pushTargets, sealedSender: d.sealedSender
        ).addRoutes(to: routes)
        ProvisioningController(store: d.store, limits: d.limits, rateLimiter: d.rateLimiter).addRoutes(to: routes)
        KeyController(directory: d.keyDirectory, limits: d.limits).addRoutes(to: routes)
        MessageController(store: d.store, limits: d.limits, sender: d.sendService, metrics: d.metrics).addRoutes(to: routes)
        SocketController.addRoutes(to: routes)
        AttachmentController(blobs: d.attachments, limits: d.limits, rateLimiter: d.rateLimiter, metrics: d.metrics)
            .addRoutes(to: routes)
        SenderCertificateController(settings: d.sealedSender).addRoutes(to: routes)
        GroupCredentialController(issuer: d.groupCredentials, limits: d.limits, rateLimiter: d.rateLimiter).addRoutes(to: routes)
        GroupController(
            groups: d.groups, profiles: d.profileKeyCredentials, authenticator: d.groupAuthenticator, limits: d.limits,
            rateLimiter: d.rateLimiter
        ).addRoutes(to: routes)
        EphemeralController(
            relay: EphemeralRelay(store: d.store, hub: d.hub, limits: d.limits, rateLimiter: d.rateLimiter),
            limits: d.limits
        ).addRoutes(to: routes)
        ContentDetectionController(
            store: d.store, settings: d.contentDetection, limits: d.limits, rateLimiter: d.rateLimiter, metrics: d.metrics,
            importer: d.importer
        ).addRoutes(to: routes)
        BackupController(
            store: d.store, limits: d.limits, rateLimiter: d.rateLimiter, settings: d.backup,
            oprf: BackupOPRFKey(serverKey: d.backup.oprfKey), attempts: d.backupAttempts, logger: logger
        ).addRoutes(to: routes)
        AccountAdministrationController(store: d.store, limits: d.limits, hub: d.hub).addRoutes(to: routes)
        PushController(directory: d.pushTargets, limits: d.limits).addRoutes(to: routes)
        // Last: it wraps only the not-found responder (a known path with another method is a 405, not a 404).
        router.add(middleware: MethodNotAllowedMiddleware(routes: router.routes))
        return router
    }

    /// The router that decides WebSocket upgrades on `GET /v1/websocket`, from the tickets of `upgrades` (the
    /// connection's upgrade filter authenticated the request and left one in it).
    static func makeWebSocketRouter(_ dependencies: ServerDependencies, upgrades: VerifiedUpgrades) -> Router<BasicWebSocketRequestContext>
    {
        let sockets = socketController(dependencies, upgrades: upgrades)
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.ws(RouterPath(APIRoutes.webSocket)) { request, _ in
            sockets.shouldUpgrade(request)
        } onUpgrade: { inbound, outbound, context in
            try await sockets.run(
                inbound, outbound, ticket: context.request.headers[SocketController.ticketField],
                binaryFrames: SocketController.asksForBinaryFrames(context.request.uri.query), logger: context.logger)
        }
        return router
    }

    /// A ready-to-run application on `host:port` (0 picks a free port; `onServerRunning` learns it).
    public static func make(
        _ dependencies: ServerDependencies, host: String = "127.0.0.1", port: Int = 8080,
        keepAliveInterval: Duration = .seconds(30),
        services: [any Service] = [],
        logger: Logger = Logger(label: "parley-server"),
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let webSocket = WebSocketServerConfiguration(
            // Pings come from the event loop (WebSocketKeepAlive in GuardedServerChannel), not a task per socket.
            maxFrameSize: max(dependencies.limits.socketFrameBytes, 1 << 14), autoPing: .disabled, validateUTF8: true)
        // A socket's credentials are checked once, by the connection's upgrade filter: its ticket carries the device.
        let upgrades = VerifiedUpgrades()
        let webSocketResponder = makeWebSocketRouter(dependencies, upgrades: upgrades).buildResponder()
        // Idle WebSockets are read from at every ping's pong: the read timeout spans at least three pings.
        var connectionLimits = dependencies.limits.connections
        connectionLimits.readTimeout = max(connectionLimits.readTimeout, keepAliveInterval * 3)
        let connections = ConnectionGuard(limits: connectionLimits)
        let authenticator = dependencies.authenticator
        let channel = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(idleTimeout: TimeAmount(connectionLimits.readTimeout)), ws: webSocket)
        var app = Application(
            router: makeRouter(dependencies, logger: logger),
            // Hummingbird's HTTP/1 + WebSocket channel behind the connection limits and stall timeouts.
            server: HTTPServerBuilder { responder in
                GuardedServerChannel(
                    base: HTTP1WebSocketUpgradeChannel(
                        responder: responder, webSocketResponder: webSocketResponder, configuration: channel),
                    connections: connections,
                    authenticateUpgrade: { authorization in
                        (try? await authenticator.authenticate(authorization: authorization)).map(upgrades.issue(for:))
                    },
                    keepAliveInterval: keepAliveInterval)
            },
            configuration: .init(address: .hostname(host, port: port), serverName: "parley-server"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger)
        app.addServices([dependencies.push] + services)
        // Imports a killed server left unfinished continue where their last chunk committed.
        Task { await dependencies.importer.resumeUnfinished() }
        return app
    }

    private static func socketController(_ d: ServerDependencies, upgrades: VerifiedUpgrades) -> SocketController {
        SocketController(
            store: d.store, acknowledgements: d.acknowledgementWriter, authenticator: d.authenticator, upgrades: upgrades, hub: d.hub,
            limits: d.limits, rateLimiter: d.rateLimiter, metrics: d.metrics, sender: d.sendService)
    }
}
