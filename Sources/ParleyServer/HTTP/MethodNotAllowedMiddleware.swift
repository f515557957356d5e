import HTTPTypes
import Hummingbird

/// Answers a request whose path is a route but whose method is not one of the route's with `405 Method Not Allowed`
/// and an `Allow` header (RFC 9110 §15.5.6), instead of the router's 404. Added last, it wraps only the router's
/// not-found responder: a request a route takes never passes through it.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// One route's path, split into components (`nil` for a captured parameter), and its methods.
    private struct Route: Sendable {
        let components: [Substring?]
        var methods: [HTTPRequest.Method]
    }

    private let routes: [Route]

    /// A middleware that knows `routes` (the router's, once every controller has added its own).
    init(routes: [Router<Context>.RouteDescription]) {
        var byPath: [String: Route] = [:]
        for route in routes {
            let template = route.path.description
            let components = template.split(separator: "/").map { component -> Substring? in
                component.hasPrefix(":") || component.hasPrefix("{") || component == "*" ? nil : component
            }
            byPath[template, default: Route(components: components, methods: [])].methods.append(route.method)
        }
        self.routes = Array(byPath.values)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            // The router's trie does not backtrack from a literal component to a parameter sibling: a path it could
            // not resolve may match a template that takes this very method. That stays the router's 404.
            let allowed = methods(for: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
            var response = try ServerError.clientError(.methodNotAllowed, "\(request.method) is not allowed on \(request.uri.path)")
                .response(from: request, context: context)
            response.headers[.allow] = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            return response
        }
    }

    /// The methods of the route the router would pick for `path`: of the templates that match it, the most specific
    /// (a literal component beats a parameter at the first place they differ, as in the router's trie), so
    /// `/v1/devices/link` answers with its own methods, not also those of `/v1/devices/{device}`.
    private func methods(for path: String) -> Set<HTTPRequest.Method> {
        let parts = path.split(separator: "/")
        var best: [Bool] = []
        var methods: Set<HTTPRequest.Method> = []
        for route in routes where route.components.count == parts.count {
            guard zip(route.components, parts).allSatisfy({ template, part in template.map { $0 == part } ?? true }) else { continue }
            let literals = route.components.map { $0 != nil }
            if methods.isEmpty || Self.moreSpecific(literals, than: best) {
                best = literals
                methods = Set(route.methods)
            } else if literals == best {
                methods.formUnion(route.methods)
            }
        }
        return methods
    }

    /// Whether a template with literal components at `a` is more specific than one with them at `b`.
    private static func moreSpecific(_ a: [Bool], than b: [Bool]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return x }
        return false
    }
}
