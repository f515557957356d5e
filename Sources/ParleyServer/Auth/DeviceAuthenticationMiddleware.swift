import Hummingbird

/// Checks the device credentials (HTTP Basic, ``DeviceAuthenticator``) before a route's handler runs and puts the
/// device in the context; a request without valid credentials gets 401 and reaches no handler.
struct DeviceAuthenticationMiddleware: RouterMiddleware {
    typealias Context = ParleyRequestContext
    let authenticator: DeviceAuthenticator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.authenticatedDevice = try await authenticator.authenticate(request)
        return try await next(request, context)
    }
}
