import HTTPTypes
import Hummingbird

/// Keeps web pages away from the local HTTP doors (`parley daemon --http`, `parley rest-api`), which have no
/// authentication: a request whose `Host` is neither the bound address nor loopback is refused with 421 (as signal-cli
/// does: a DNS-rebinding page names its own host), and any request carrying an `Origin` — which browsers add to
/// cross-site requests and WebSocket handshakes, and tools do not — with 403.
public struct LoopbackGuard: Sendable {
    public let endpoint: HostAndPort

    /// A guard for the door served at `endpoint`.
    public init(endpoint: HostAndPort) { self.endpoint = endpoint }

    /// The answer refusing `request`, or `nil` when it may proceed.
    public func refusal(of request: Request) -> Response? {
        if request.headers[HTTPField.Name("Origin")!] != nil { return Response(status: .forbidden) }
        guard !["0.0.0.0", "::"].contains(endpoint.host), let authority = request.head.authority else { return nil }
        guard let (name, port) = HostAndPort.split(authority: authority) else { return Response(status: .misdirectedRequest) }
        let allowed = [endpoint.host, "localhost", "127.0.0.1", "::1"].contains(name)
        return allowed && (port == nil || port == endpoint.port || endpoint.port == 0) ? nil : Response(status: .misdirectedRequest)
    }
}

/// ``LoopbackGuard`` in front of every route of a router.
public struct LoopbackGuardMiddleware<Context: RequestContext>: RouterMiddleware {
    public let `guard`: LoopbackGuard

    /// Runs `guard` before every route.
    public init(guard: LoopbackGuard) { self.guard = `guard` }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let refusal = `guard`.refusal(of: request) { return refusal }
        return try await next(request, context)
    }
}
