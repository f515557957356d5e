import Hummingbird

/// Behind a reverse proxy every connection comes from the proxy: this middleware, first on every route when
/// ``ConnectionLimits/trustedProxies`` names any, reads the client's address from `X-Forwarded-For` on requests that
/// arrive through one of them (``ClientAddress/client(peer:forwardedFor:trustedProxies:)``), so that the per-address
/// limits count clients, not the proxy.
struct ForwardedClientMiddleware: RouterMiddleware {
    typealias Context = ParleyRequestContext

    /// The proxies whose `X-Forwarded-For` is believed.
    let trustedProxies: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let peer = context.remoteAddress?.ipAddress
        if let peer, trustedProxies.contains(peer) {
            context.forwardedClientAddress = ClientAddress.client(
                peer: peer, forwardedFor: request.headers[values: .init("X-Forwarded-For")!], trustedProxies: trustedProxies)
        }
        return try await next(request, context)
    }
}
