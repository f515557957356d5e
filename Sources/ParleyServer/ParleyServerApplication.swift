import Hummingbird
import Logging
import ParleyAPI

/// Builds the parley-server HTTP application from its dependencies; nothing global.
public enum ParleyServerApplication {
    /// The router with every route and the error middleware.
    public static func makeRouter(store: any ServerStore, hasher: PasswordHasher, limits: ServerLimits = ServerLimits())
        -> Router<BasicRequestContext>
    {
        let authenticator = DeviceAuthenticator(store: store, hasher: hasher)
        let accounts = AccountController(store: store, hasher: hasher, authenticator: authenticator, limits: limits)
        let keys = KeyController(store: store, authenticator: authenticator, limits: limits)
        let devices = DeviceController(store: store, hasher: hasher, authenticator: authenticator, limits: limits)
        let messages = MessageController(store: store, authenticator: authenticator, limits: limits)
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: ErrorMiddleware())
        router.get(RouterPath(APIRoutes.health)) { _, _ in try JSONCoding.response(["status": "ok"]) }
        router.post(RouterPath(APIRoutes.accounts)) { request, _ in try await accounts.register(request) }
        router.get(RouterPath(APIRoutes.devices)) { request, _ in try await accounts.listDevices(request) }
        router.post(RouterPath(APIRoutes.linkCode)) { request, _ in try await devices.issueLinkCode(request) }
        router.put(RouterPath(APIRoutes.linkDevice)) { request, _ in try await devices.link(request) }
        router.delete("/v1/devices/:device") { request, context in
            try await devices.remove(request, deviceId: try context.parameters.require("device"))
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
        return router
    }

    /// A ready-to-run application on `host:port`.
    public static func make(
        store: any ServerStore, hasher: PasswordHasher = PasswordHasher(), limits: ServerLimits = ServerLimits(),
        host: String = "127.0.0.1", port: Int = 8080,
        logger: Logger = Logger(label: "parley-server")
    ) -> some ApplicationProtocol {
        Application(
            router: makeRouter(store: store, hasher: hasher, limits: limits),
            configuration: .init(address: .hostname(host, port: port), serverName: "parley-server"),
            logger: logger)
    }
}
