import Hummingbird
import NIOCore
import ParleyAPI

/// `/health` (the store answers) and `/metrics` (Prometheus text), both without credentials.
struct ServiceStatusController: Sendable {
    let store: any ServerStore
    let metrics: ServerMetrics
    let mailboxDepth: MailboxDepthReading

    /// The routes over `store`, reporting `metrics`; the mailbox depth is counted at most once every five seconds.
    init(store: any ServerStore, metrics: ServerMetrics) {
        self.store = store
        self.metrics = metrics
        mailboxDepth = MailboxDepthReading { try await store.mailboxDepth() }
    }

    func addRoutes(to routes: ServerRoutes) {
        routes.open.get(RouterPath(APIRoutes.health), use: health)
        routes.open.get(RouterPath(APIRoutes.metrics), use: prometheus)
    }

    /// `GET /health`: `{"status":"ok"}` once the database answers a trivial query.
    @Sendable func health(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        try await store.ping()
        return try JSONCoding.response(["status": "ok"])
    }

    /// `GET /metrics`: every `parley_*` metric, with the mailbox depth counted at most five seconds ago.
    @Sendable func prometheus(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        metrics.mailboxDepth.set(Double(try await mailboxDepth.depth()))
        let body = ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.render()))
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"], body: body)
    }
}
