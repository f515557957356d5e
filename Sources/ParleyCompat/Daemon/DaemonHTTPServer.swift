import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ParleyLocalService

/// signal-cli's HTTP transport for the daemon: `POST /api/v1/rpc` (JSON-RPC, single or batched; errors are JSON-RPC
/// errors with status 200, a request with nothing to answer is 201), `GET /api/v1/events` (server-sent events: one
/// `event:receive` with the `{"account", "envelope"}` parameters per incoming message, its local message id as the
/// event's `id:`, a `:` comment every 15 seconds; a client that sends `Last-Event-ID` — as an EventSource reconnecting
/// does — or `?since=ID` first gets every message it missed, read from the database), and `GET /api/v1/check`.
/// At most ``maximumStreams`` event streams at once (the next gets a stream that holds only `retry:` and ends, so an
/// EventSource reconnects later); a stream whose client leaves
/// an event untaken for ``stallLimit`` is closed (the client reconnects with `Last-Event-ID` and catches up).
/// ``LoopbackGuard`` keeps web pages out; there is no other authentication.
struct DaemonHTTPServer {
    let endpoint: HostAndPort
    let session: DaemonSession
    let peers: DaemonPeers
    /// The event streams open at once.
    let streams = SubscriberSlots(limit: maximumStreams)

    /// The largest request body accepted (attachments travel as data URIs).
    static let maximumBodyBytes = 128 * 1024 * 1024
    /// How often an idle event stream gets a keep-alive comment.
    static let keepAliveInterval: Duration = .seconds(15)
    /// How many event streams may be open at once: each holds a connection, a feed and its buffer.
    static let maximumStreams = 64
    /// How long a client turned away because every stream place is taken is told to wait before reconnecting (an SSE
    /// `retry:` field).
    static let fullRetryMilliseconds = 5_000
    /// How long an event stream's client may leave an event (or keep-alive) untaken before its connection is closed.
    static let stallLimit: Duration = .seconds(30)

    func run() async throws {
        let router = Router(context: LocalRequestContext.self)
        router.post("/api/v1/rpc") { request, _ -> Response in
            if let refusal = LoopbackGuard(endpoint: endpoint).refusal(of: request) { return refusal }
            guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
                return Response(status: .unsupportedMediaType)
            }
            let body = try await request.body.collect(upTo: Self.maximumBodyBytes)
            guard let answer = await session.respond(to: Data(buffer: body)) else { return Response(status: .created) }
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer)))
        }
        router.get("/api/v1/events") { request, context -> Response in
            if let refusal = LoopbackGuard(endpoint: endpoint).refusal(of: request) { return refusal }
            let cursor =
                request.headers[HTTPField.Name("Last-Event-ID")!].flatMap { Int64($0) }
                ?? request.uri.queryParameters["since"].flatMap { Int64($0) }
            // signal-cli's `?account=`: one account's events (all accounts' when absent); an unknown one is 400.
            var account: DaemonAccount?
            if let name = request.uri.queryParameters["account"].map(String.init), !name.isEmpty, session.accounts.multiAccount {
                guard let named = session.accounts.named(name) else { return Response(status: .badRequest) }
                account = named
            } else if session.accounts.all.count == 1 {
                account = session.accounts.all[0]
            }
            // A catch-up cursor is a local message id, so it needs one account's database.
            guard cursor == nil || account != nil else { return Response(status: .badRequest) }
            guard let lease = streams.lease() else {
                // A 503 would end an EventSource for good: a stream that only says when to come back, and ends, makes it
                // reconnect then (with its Last-Event-ID, losing nothing).
                return Response(
                    status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: "retry: \(Self.fullRetryMilliseconds)\n: too many event streams\n\n"))
                )
            }
            let hold = StreamHold(lease, limit: Self.stallLimit, closing: context.channel, waitingForHead: true)
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: events(of: account, after: cursor, holding: hold))
        }
        router.get("/api/v1/check") { _, _ in Response(status: .ok) }
        try await LocalHTTPService.run("parley-daemon", router: router, endpoint: endpoint)
    }

    /// The event stream of one client: the messages `account` stored after `cursor` (when it names one), then every
    /// incoming message (of `account`, or of every account when `nil`) until it disconnects; each once, in order.
    /// `hold` keeps its place among the open streams until the body is gone, and closes the connection when the client
    /// leaves a write (the response head included) untaken for ``stallLimit``.
    private func events(of account: DaemonAccount?, after cursor: Int64?, holding hold: StreamHold) -> ResponseBody {
        ResponseBody { [peers] writer in
            // The head is out once the body runs.
            hold.watch.stopWaiting()
            try await MissedMessages.feed(
                from: peers, of: account, after: cursor, keepAlive: (Self.keepAliveInterval, ":\n"),
                frame: { Self.frame($0, withId: account != nil) }
            ) { text in
                try await hold.watch.write { try await writer.write(ByteBuffer(string: text)) }
            }
            try await writer.finish(nil)
        }
    }

    /// One server-sent event for `event`: `id:` the local message id (`withId`: only on one account's stream, since ids
    /// are per account), `event:receive`, `data:` signal-cli's parameters.
    static func frame(_ event: DaemonEvent, withId: Bool = true) -> String {
        let data = (try? JSONEncoder().encode(event.signalCLI)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let id = withId ? event.message.map { "id:\($0.id)\n" } ?? "" : ""
        return id + "event:receive\ndata:\(data)\n\n"
    }
}
