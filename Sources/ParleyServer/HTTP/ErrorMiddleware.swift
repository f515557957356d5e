import Hummingbird
import Logging

/// Turns every error into a JSON error response: Hummingbird's own HTTP errors keep their status,
/// anything unexpected becomes a logged 500 — never a dropped connection.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServerError {
            if case .internalFailure(let detail) = error {
                context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(detail)"])
            }
            return try error.response(from: request, context: context)
        } catch let error as HTTPError {
            let mapped: ServerError =
                error.status == .notFound
                ? .notFound("no route \(request.method) \(request.uri.path)")
                : error.status.code < 500
                    ? .clientError(error.status, error.body ?? error.status.reasonPhrase) : .internalFailure("\(error)")
            return try mapped.response(from: request, context: context)
        } catch {
            context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            return try ServerError.internalFailure("\(error)").response(from: request, context: context)
        }
    }
}
