import Hummingbird
import Logging

/// Counts every answered request and its latency in ``ServerMetrics`` and, at debug level, logs it: method, route
/// (the template, such as `/v1/messages/{account}`, never the path with its ids), status and duration — never bodies,
/// queries or credentials. Sits outside the error middleware, so it sees the final status of error responses too.
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context: context, status: response.status.code, duration: ContinuousClock.now - start, answered: true)
            return response
        } catch {
            record(
                request, context: context, status: (error as? any HTTPResponseError)?.status.code ?? 500,
                duration: ContinuousClock.now - start, answered: false)
            throw error
        }
    }

    /// Counts the request (the latency histogram only for those a handler answered; an error thrown on to the error
    /// middleware is counted by status alone) and logs it at debug level.
    private func record(_ request: Request, context: Context, status: Int, duration: Duration, answered: Bool) {
        metrics.countRequest(method: request.method.rawValue, status: status)
        if answered { metrics.requestDuration.record(duration) }
        guard logger.logLevel <= .debug else { return }
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        logger.debug(
            "\(request.method.rawValue) \(context.endpointPath ?? "(no route)") \(status)",
            metadata: ["duration_ms": "\(Int(milliseconds.rounded()))"])
    }
}
