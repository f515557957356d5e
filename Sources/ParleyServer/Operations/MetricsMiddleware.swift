import Hummingbird

/// Counts every answered request and its latency in ``ServerMetrics``. Sits outside the error middleware,
/// so it sees the final status of error responses too.
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            metrics.countRequest(method: request.method.rawValue, status: response.status.code)
            metrics.requestDuration.record(ContinuousClock.now - start)
            return response
        } catch {
            metrics.countRequest(method: request.method.rawValue, status: (error as? any HTTPResponseError)?.status.code ?? 500)
            throw error
        }
    }
}
