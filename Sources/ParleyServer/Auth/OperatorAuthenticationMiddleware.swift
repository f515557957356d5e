import Hummingbird

/// Checks the operator's bearer token (``OperatorAuthenticator``) before an operator route's handler runs: 401 without
/// it, 403 when the server was started without an operator token.
struct OperatorAuthenticationMiddleware: RouterMiddleware {
    typealias Context = ParleyRequestContext
    let authenticator: OperatorAuthenticator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try authenticator.authenticate(request)
        return try await next(request, context)
    }
}
