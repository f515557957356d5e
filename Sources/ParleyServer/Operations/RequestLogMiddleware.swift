import Hummingbird
import Logging

/// Logs every answered request at debug level: method, route (the template, such as `/v1/messages/{account}`, never
/// the path with its ids), status and duration — never bodies, queries or credentials.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard logger.logLevel <= .debug else { return try await next(request, context) }
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, context: context, status: response.status.code, since: start)
            return response
        } catch {
            log(request, context: context, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: start)
            throw error
        }
    }

    private func log(_ request: Request, context: Context, status: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.debug("\(request.method.rawValue) \(context.endpointPath ?? "(no route)") \(status)",
                     metadata: ["duration_ms": "\(Int(milliseconds.rounded()))"])
    }
}
