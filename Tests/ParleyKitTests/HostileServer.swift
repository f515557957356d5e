import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// A server that lies: an HTTP proxy in front of a real ``TestServer`` that forwards every request, except those a
/// rule claims, which it answers as the rule says: with garbage, a truncated or endless body, a tampered or replayed
/// copy of the real answer, or a lost answer (forwarded, so it takes effect, and then answered with a 502).
final class HostileServer: Sendable {
    /// What to do with a request a rule claims.
    enum Action: Sendable {
        /// Answer with `status` and `body`, without forwarding.
        case answer(status: Int, body: [UInt8])
        /// Forward, and answer with the real status and this rewrite of the real body.
        case rewrite(@Sendable ([UInt8]) -> [UInt8])
        /// Forward (the request takes effect) and answer 502: the answer was lost on the way.
        case loseAnswer
        /// Answer 200 with a body that never ends.
        case endlessBody
    }

    private struct Rule {
        let method: String
        let pathPrefix: String
        var remaining: Int
        let action: Action
    }

    private let upstream: String
    private let http: HTTPClient
    private let rules = Mutex<[Rule]>([])
    private let log = Mutex<[String]>([])
    private let identifiedLog = Mutex<[String]>([])
    private let task = Mutex<Task<Void, any Error>?>(nil)
    private let url = Mutex("")

    /// A proxy in front of `upstream` (its base URL); call ``start()`` before use and ``stop()`` after.
    init(upstream: String, http: HTTPClient) {
        self.upstream = upstream
        self.http = http
    }

    /// Where clients reach it.
    var baseURL: String { url.withLock { $0 } }

    /// The requests it saw, as `METHOD path`, in order.
    var requests: [String] { log.withLock { $0 } }
    /// The requests it saw carrying an `Authorization` header (a device's credentials), as `METHOD path`, in order.
    var identifiedRequests: [String] { identifiedLog.withLock { $0 } }

    /// The next `times` requests of `method` whose path starts with `pathPrefix` get `action`.
    func on(_ method: String, _ pathPrefix: String, times: Int = 1, _ action: Action) {
        rules.withLock { $0.append(Rule(method: method, pathPrefix: pathPrefix, remaining: times, action: action)) }
    }

    func start() async throws {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "hostile-server")
        logger.logLevel = .critical
        let app = Application(
            responder: CallbackResponder { [self] (request: Request, _: BasicRequestContext) in try await self.respond(to: request) },
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        task.withLock { $0 = Task { try await app.run() } }
        for await port in ports {
            url.withLock { $0 = "http://127.0.0.1:\(port)" }
            break
        }
    }

    func stop() async {
        let running = task.withLock { $0 }
        running?.cancel()
        _ = await running?.result
    }

    private func respond(to request: Request) async throws -> Response {
        let method = request.method.rawValue
        let path = request.uri.path
        log.withLock { $0.append("\(method) \(path)") }
        if request.headers[.authorization] != nil { identifiedLog.withLock { $0.append("\(method) \(path)") } }
        let action = rules.withLock { rules -> Action? in
            guard let index = rules.firstIndex(where: { $0.method == method && path.hasPrefix($0.pathPrefix) && $0.remaining > 0 }) else {
                return nil
            }
            rules[index].remaining -= 1
            return rules[index].action
        }
        switch action {
        case .answer(let status, let body)?:
            return Self.response(status: status, body: body)
        case .endlessBody?:
            let chunk = ByteBuffer(repeating: UInt8(ascii: "["), count: 64 * 1024)
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody { writer in
                    while !Task.isCancelled { try await writer.write(chunk) }
                    try await writer.finish(nil)
                })
        case .loseAnswer?:
            _ = try await forward(request)
            return Self.response(status: 502, body: Array("<html>bad gateway</html>".utf8))
        case .rewrite(let rewrite)?:
            let (status, contentType, body) = try await forward(request)
            return Self.response(status: status, body: rewrite(body), contentType: contentType)
        case nil:
            let (status, contentType, body) = try await forward(request)
            return Self.response(status: status, body: body, contentType: contentType)
        }
    }

    /// The real server's answer to `request`: status, content type and body.
    private func forward(_ request: Request) async throws -> (Int, String?, [UInt8]) {
        var outgoing = HTTPClientRequest(url: upstream + request.uri.description)
        outgoing.method = .init(rawValue: request.method.rawValue)
        for field in request.headers where field.name.canonicalName != "host" && field.name != .contentLength && field.name != .connection {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        let body = try await request.body.collect(upTo: 256 * 1024 * 1024)
        if body.readableBytes > 0 || request.method == .put || request.method == .post { outgoing.body = .bytes(body) }
        let response = try await http.execute(outgoing, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 256 * 1024 * 1024)
        return (Int(response.status.code), response.headers.first(name: "Content-Type"), Array(bytes.readableBytesView))
    }

    private static func response(status: Int, body: [UInt8], contentType: String? = "application/json") -> Response {
        var headers = HTTPFields()
        if let contentType { headers[.contentType] = contentType }
        return Response(status: .init(code: status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// Runs `body` with a hostile server in front of `server`, stopping it afterwards.
    static func run(inFrontOf server: TestServer, _ body: (HostileServer) async throws -> Void) async throws {
        let hostile = HostileServer(upstream: server.baseURL, http: server.http)
        try await hostile.start()
        do {
            try await body(hostile)
        } catch {
            await hostile.stop()
            throw error
        }
        await hostile.stop()
    }
}
