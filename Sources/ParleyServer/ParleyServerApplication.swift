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
    /// The HTTP router with every route, the metrics and error middleware.
    public static func makeRouter(_ dependencies: ServerDependencies) -> Router<BasicRequestContext> {
        let d = dependencies
        let authenticator = d.authenticator
        let deviceDirectory = d.deviceDirectory
        let accounts = AccountController(
            store: d.store, hasher: d.hasher, authenticator: authenticator, limits: d.limits, rateLimiter: d.rateLimiter,
            deviceDirectory: deviceDirectory, registration: d.registration, sealedSender: d.sealedSender)
        let provisioning = ProvisioningController(
            store: d.store, authenticator: authenticator, limits: d.limits, rateLimiter: d.rateLimiter)
        let keys = KeyController(directory: d.keyDirectory, authenticator: authenticator, limits: d.limits)
        let devices = DeviceController(
            store: d.store, hasher: d.hasher, authenticator: authenticator, limits: d.limits, rateLimiter: d.rateLimiter, hub: d.hub,
            directory: deviceDirectory, sealedSender: d.sealedSender)
        let messages = MessageController(
            store: d.store, authenticator: authenticator, limits: d.limits, sender: d.sendService, metrics: d.metrics)
        let attachments = AttachmentController(
            blobs: d.attachments, authenticator: authenticator, limits: d.limits, rateLimiter: d.rateLimiter, metrics: d.metrics)
        let sockets = socketController(d, authenticator: authenticator)
        let contentHashes = ContentHashController(
            store: d.store, authenticator: authenticator, operators: d.operators,
            settings: d.contentDetection, limits: d.limits, rateLimiter: d.rateLimiter, metrics: d.metrics, importer: d.importer)
        let backups = BackupController(
            store: d.store, authenticator: authenticator, limits: d.limits, rateLimiter: d.rateLimiter, settings: d.backup,
            oprf: BackupOPRFKey(serverKey: d.backup.oprfKey), attempts: d.backupAttempts)

        let certificates = SenderCertificateController(settings: d.sealedSender, authenticator: authenticator)
        let administration = AccountAdministrationController(
            store: d.store, operators: d.operators, limits: d.limits, hub: d.hub)

        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: MetricsMiddleware(metrics: d.metrics))
        router.add(middleware: ErrorMiddleware())
        router.get(RouterPath(APIRoutes.health)) { _, _ in
            _ = try await d.store.account(id: "")  // the store answers
            return try JSONCoding.response(["status": "ok"])
        }
        router.get(RouterPath(APIRoutes.deliveryCertificate)) { request, _ in try await certificates.delivery(request) }
        router.get(RouterPath(APIRoutes.sealedSenderTrustRoot)) { request, _ in try await certificates.trustRoot(request) }
        router.get(RouterPath(APIRoutes.metrics)) { _, _ in
            d.metrics.mailboxDepth.set(Double(try await d.store.mailboxDepth()))
            let body = ResponseBody(byteBuffer: ByteBuffer(bytes: d.metrics.render()))
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"], body: body)
        }
        router.post(RouterPath(APIRoutes.accounts)) { request, _ in try await accounts.register(request) }
        router.get("/v1/accounts/username/:username") { request, context in
            try await accounts.lookup(request, username: try context.parameters.require("username"))
        }
        router.get("/v1/accounts/:id") { request, context in
            try await accounts.account(request, id: try context.parameters.require("id"))
        }
        router.get(RouterPath(APIRoutes.devices)) { request, _ in try await accounts.listDevices(request) }
        router.post(RouterPath(APIRoutes.linkCode)) { request, _ in try await devices.issueLinkCode(request) }
        router.put(RouterPath(APIRoutes.linkDevice)) { request, _ in try await devices.link(request) }
        router.put(RouterPath(APIRoutes.deviceRegistration)) { request, _ in try await devices.resetRegistration(request) }
        router.delete("/v1/devices/:device") { request, context in
            try await devices.remove(request, deviceId: try context.parameters.require("device"))
        }
        router.put("/v1/provisioning/:address") { request, context in
            try await provisioning.put(request, address: try context.parameters.require("address"))
        }
        router.get("/v1/provisioning/:address") { request, context in
            try await provisioning.take(request, address: try context.parameters.require("address"))
        }
        router.put(RouterPath(APIRoutes.keys)) { request, _ in try await keys.upload(request) }
        router.get(RouterPath(APIRoutes.keyCount)) { request, _ in try await keys.count(request) }
        router.get("/v1/keys/:account/:device") { request, context in
            try await keys.bundle(
                request, accountId: try context.parameters.require("account"), deviceSelector: try context.parameters.require("device"))
        }
        // PUT names the recipient account, DELETE an envelope: one path parameter name for both.
        router.put("/v1/messages/:id") { request, context in
            try await messages.send(request, to: try context.parameters.require("id"))
        }
        router.get(RouterPath(APIRoutes.mailbox)) { request, _ in try await messages.fetch(request) }
        router.delete("/v1/messages/:id") { request, context in
            try await messages.acknowledge(request, guid: try context.parameters.require("id"))
        }
        router.get(RouterPath(APIRoutes.webSocket)) { request, _ in try await sockets.refuse(request) }
        router.post(RouterPath(APIRoutes.attachments)) { request, context in try await attachments.upload(request, context: context) }
        router.get("/v1/attachments/:id") { request, context in
            try await attachments.download(request, id: try context.parameters.require("id"), context: context)
        }
        router.post(RouterPath(ContentHashRoutes.contains)) { request, _ in try await contentHashes.contains(request) }
        router.post(RouterPath(ContentHashRoutes.batchContains)) { request, _ in try await contentHashes.batchContains(request) }
        router.post(RouterPath(ContentHashRoutes.store)) { request, _ in try await contentHashes.storeSeen(request) }
        router.get("/v1/dcd/prefix/:prefix") { request, context in
            try await contentHashes.prefix(request, prefix: try context.parameters.require("prefix"))
        }
        router.put("/v1/dcd/banks/:bank/hashes/:hash") { request, context in
            try await contentHashes.put(request, bank: try context.parameters.require("bank"), hash: try context.parameters.require("hash"))
        }
        router.delete("/v1/dcd/banks/:bank/hashes/:hash") { request, context in
            try await contentHashes.delete(request, bank: try context.parameters.require("bank"), hash: try context.parameters.require("hash"))
        }
        router.post("/v1/dcd/imports") { request, context in try await contentHashes.startImport(request, context: context) }
        router.get("/v1/dcd/imports/:id") { request, context in
            try await contentHashes.importStatus(request, id: try context.parameters.require("id"))
        }
        router.post(RouterPath(OperatorRoutes.invites)) { request, _ in try await administration.createInvite(request) }
        router.get(RouterPath(OperatorRoutes.accounts)) { request, _ in try await administration.listAccounts(request) }
        router.put("/v1/operator/accounts/:account/disabled") { request, context in
            try await administration.setDisabled(request, accountId: try context.parameters.require("account"))
        }
        router.delete("/v1/operator/accounts/:account") { request, context in
            try await administration.delete(request, accountId: try context.parameters.require("account"))
        }
        router.post(RouterPath(BackupRoutes.evaluate)) { request, _ in try await backups.evaluateOwn(request) }
        router.put(RouterPath(BackupRoutes.backup)) { request, _ in try await backups.put(request) }
        router.get(RouterPath(BackupRoutes.backup)) { request, _ in try await backups.status(request) }
        router.delete(RouterPath(BackupRoutes.backup)) { request, _ in try await backups.delete(request) }
        router.post("/v1/backup/:username/evaluate") { request, context in
            try await backups.evaluateForRestore(request, username: try context.parameters.require("username"))
        }
        router.post("/v1/backup/:username/restore") { request, context in
            try await backups.restore(request, username: try context.parameters.require("username"))
        }
        return router
    }

    /// The router that decides WebSocket upgrades on `GET /v1/websocket`.
    public static func makeWebSocketRouter(_ dependencies: ServerDependencies) -> Router<BasicWebSocketRequestContext> {
        let sockets = socketController(dependencies, authenticator: dependencies.authenticator)
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.ws(RouterPath(APIRoutes.webSocket)) { request, _ in
            await sockets.shouldUpgrade(request)
        } onUpgrade: { inbound, outbound, context in
            try await sockets.run(inbound, outbound, request: context.request, logger: context.logger)
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
            maxFrameSize: max(dependencies.limits.socketFrameBytes, 1 << 14), autoPing: .enabled(timePeriod: keepAliveInterval),
            validateUTF8: true)
        let webSocketResponder = makeWebSocketRouter(dependencies).buildResponder()
        // Idle WebSockets are read from at every ping's pong: the read timeout spans at least three pings.
        var connectionLimits = dependencies.limits.connections
        connectionLimits.readTimeout = max(connectionLimits.readTimeout, keepAliveInterval * 3)
        let connections = ConnectionGuard(limits: connectionLimits)
        let channel = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(idleTimeout: TimeAmount(connectionLimits.readTimeout)), ws: webSocket)
        var app = Application(
            router: makeRouter(dependencies),
            // Hummingbird's HTTP/1 + WebSocket channel behind the connection limits and stall timeouts.
            server: HTTPServerBuilder { responder in
                GuardedServerChannel(
                    base: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder, configuration: channel),
                    connections: connections)
            },
            configuration: .init(address: .hostname(host, port: port), serverName: "parley-server"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger)
        app.addServices(services)
        // Imports a killed server left unfinished continue where their last chunk committed.
        Task { await dependencies.importer.resumeUnfinished() }
        return app
    }

    private static func socketController(_ d: ServerDependencies, authenticator: DeviceAuthenticator) -> SocketController {
        SocketController(store: d.store, authenticator: authenticator, hub: d.hub, limits: d.limits, rateLimiter: d.rateLimiter,
                         metrics: d.metrics, sender: d.sendService)
    }
}
