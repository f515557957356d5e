import Foundation
import Hummingbird
import Logging
import NIOCore

/// signal-cli's HTTP transport for the daemon: `POST /api/v1/rpc` (JSON-RPC, single or batched; errors are JSON-RPC
/// errors with status 200, a request with nothing to answer is 201), `GET /api/v1/events` (server-sent events: one
/// `event:receive` with the `{"account", "envelope"}` parameters per incoming message, a `:` comment every 15 seconds),
/// and `GET /api/v1/check`. As signal-cli, a request whose `Host` is not the bound address or loopback is refused with
/// 421 (a guard against DNS rebinding from a browser); there is no other authentication.
struct DaemonHTTPServer {
    let endpoint: HTTPEndpoint
    let session: DaemonSession
    let peers: DaemonPeers

    /// The largest request body accepted (attachments travel as data URIs).
    static let maximumBodyBytes = 128 * 1024 * 1024
    /// How often an idle event stream gets a keep-alive comment.
    static let keepAliveInterval: Duration = .seconds(15)

    func run() async throws {
        let router = Router()
        router.post("/api/v1/rpc") { request, _ -> Response in
            if let refusal = refusal(of: request) { return refusal }
            guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
                return Response(status: .unsupportedMediaType)
            }
            let body = try await request.body.collect(upTo: Self.maximumBodyBytes)
            guard let answer = await session.respond(to: Data(buffer: body)) else { return Response(status: .created) }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer)))
        }
        router.get("/api/v1/events") { request, _ -> Response in
            if let refusal = refusal(of: request) { return refusal }
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: events())
        }
        router.get("/api/v1/check") { _, _ in Response(status: .ok) }
        var logger = Logger(label: "parley-daemon")
        logger.logLevel = .warning  // the listening line below is the start-up message
        let app = Application(
            router: router, configuration: .init(address: .hostname(endpoint.host, port: endpoint.port), serverName: "parley-daemon"),
            onServerRunning: { [endpoint] channel in
                let port = channel.localAddress?.port ?? endpoint.port
                FileHandle.standardError.write(Data("parley daemon listening on http://\(endpoint.host):\(port)\n".utf8))
            }, logger: logger)
        try await app.runService()
    }

    /// The event stream of one client: every incoming message until it disconnects.
    private func events() -> ResponseBody {
        ResponseBody { [peers] writer in
            let (chunks, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
            let id = peers.add { event in
                guard let data = try? JSONEncoder().encode(event.signalCLI) else { return }
                continuation.yield("event:receive\ndata:\(String(decoding: data, as: UTF8.self))\n\n")
            }
            let keepAlive = Task {
                while !Task.isCancelled {
                    try await Task.sleep(for: Self.keepAliveInterval)
                    continuation.yield(":\n")
                }
            }
            defer {
                peers.remove(id)
                keepAlive.cancel()
                continuation.finish()
            }
            for await chunk in chunks { try await writer.write(ByteBuffer(string: chunk)) }
            try await writer.finish(nil)
        }
    }

    /// signal-cli's 421 for a `Host` that is neither the bound address nor loopback (when bound to one address).
    private func refusal(of request: Request) -> Response? {
        guard !["0.0.0.0", "::"].contains(endpoint.host), let host = request.head.authority else { return nil }
        var name = host, port: Int?
        if let colon = host.lastIndex(of: ":"), !host.hasSuffix("]"), let number = Int(host[host.index(after: colon)...]) {
            name = String(host[..<colon])
            port = number
        }
        name = name.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let allowed = [endpoint.host, "localhost", "127.0.0.1", "::1"].contains(name)
        return allowed && (port == nil || port == endpoint.port || endpoint.port == 0) ? nil : Response(status: .misdirectedRequest)
    }
}
