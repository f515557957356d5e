import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import ParleyKit
import ParleyLocalService

/// signal-cli-rest-api's REST surface (its json-rpc mode) over Parley: `POST /v2/send` (and the deprecated `/v1/send`),
/// the `/v1/receive/{number}` WebSocket, reactions, receipts, typing, remote delete, `/v1/about` and `/v1/health` here;
/// groups in ``addGroupRoutes(to:)``; identities, devices, the PIN, settings, contacts, accounts and attachments in
/// ``addAccountRoutes(to:)`` — with that API's request and response JSON, so bots written for it (PyPI's `signalbot`)
/// run on Parley. Its routes for what Parley has no counterpart of (phone-number registration, profiles, sticker packs,
/// polls, usernames, rate-limit challenges, global settings, group administrators…) answer 501 with an error naming
/// the route: every route of that API is served.
/// A front door: every route turns into one of ``SignalCLIMethods``' calls — what signal-cli-rest-api itself does in front
/// of signal-cli — and presents the answer. `{number}` picks the account (its number, account id or username).
///
/// Errors are `{"error": "…"}` with status 400 (404 for an unknown group), as in signal-cli-rest-api. ``LoopbackGuard``
/// keeps web pages out; there is no other authentication: serve it on loopback (the default) or behind a proxy that
/// authenticates.
public struct RestAPIServer: Sendable {
    /// The address served (`HOST:PORT`; port 0 picks one, printed on standard error).
    let endpoint: HostAndPort

    /// A server for `listen` (`HOST:PORT`).
    /// - Throws: ``HostAndPortError`` for an address that does not parse.
    public init(listen: String) throws {
        endpoint = try HostAndPort(parsing: listen)
    }

    /// Serves `accounts` (with `allAccounts`, every one under its own `{number}`) until the process is stopped; each
    /// listens on its server socket meanwhile.
    public func run(serving accounts: [ServedAccount], allAccounts: Bool) async throws {
        try await DaemonAccounts.serve(accounts, allAccounts: allAccounts) { accounts, peers in
            let routes = RestAPIRoutes(endpoint: endpoint, accounts: accounts, peers: peers)
            try await LocalHTTPService.run(
                "parley-rest-api", router: routes.router(),
                server: .http1WebSocketUpgrade(
                    webSocketRouter: routes.socketRouter(), configuration: .init(http1: .init(idleTimeout: LocalHTTPService.idleTimeout))),
                endpoint: endpoint)
        }
    }
}

/// signal-cli-rest-api's routes (``RestAPIServer``) for the accounts a server serves.
struct RestAPIRoutes: Sendable {
    /// The address served: requests naming another host are refused (``LoopbackGuard``).
    let endpoint: HostAndPort
    let accounts: DaemonAccounts
    let peers: DaemonPeers
    /// The `/v1/receive` sockets connected at once (one past them is closed with ``tryAgainLater``).
    let subscribers = SubscriberSlots(limit: 64)
    /// The attachment downloads served at once (`GET /v1/attachments/{id}`; the next is 503 with `Retry-After`).
    let downloads = SubscriberSlots(limit: 4)
    /// WebSocket close code 1013, "Try Again Later" (IANA's registry for RFC 6455): the server is at its limit.
    static let tryAgainLater: UInt16 = 1013

    /// The largest request body accepted (attachments travel base64-encoded inside it).
    static let maximumBodyBytes = 128 * 1024 * 1024
    /// How long a `/v1/receive` client may leave a frame untaken (or a download client a chunk) before it is given up
    /// on: its connection closes (a socket's client reconnects with `?since=` and catches up).
    static let stallLimit: Duration = .seconds(30)

    /// signal-cli-rest-api's routes for what Parley has no counterpart of: each answers 501 with an error naming it,
    /// rather than a 404 that reads like a wrong address.
    static let unsupportedRoutes: [(HTTPRequest.Method, String)] = [
        (.post, "/v1/register/:number"), (.post, "/v1/register/:number/verify/:token"), (.post, "/v1/unregister/:number"),
        (.put, "/v1/profiles/:number"), (.get, "/v1/profiles/:number/:recipient"),
        (.get, "/v1/sticker-packs/:number"), (.post, "/v1/sticker-packs/:number"),
        (.post, "/v1/polls/:number"), (.put, "/v1/polls/:number"), (.delete, "/v1/polls/:number"),
        (.post, "/v1/accounts/:number/rate-limit-challenge"), (.put, "/v1/accounts/:number/settings"),
        (.put, "/v1/contacts/:number"), (.post, "/v1/contacts/:number/sync"),
        (.get, "/v1/search/:number"), (.get, "/v1/configuration"), (.post, "/v1/configuration"),
        (.get, "/v1/qrcodelink"), (.get, "/v1/qrcodelink/raw"), (.post, "/v1/polls/:number/vote"),
        (.get, "/v1/contacts/:number/:recipient/avatar"), (.delete, "/v1/devices/:number/local-data"),
        // Parley's groups have no avatars, blocking or pinned messages (and joining goes by link, through the daemon).
        (.get, "/v1/groups/:number/:group/avatar"), (.post, "/v1/groups/:number/:group/block"),
        (.post, "/v1/groups/:number/:group/join"), (.post, "/v1/groups/:number/:group/pin-message"),
        (.delete, "/v1/groups/:number/:group/pin-message"),
    ]

    /// The routes of plain requests.
    func router() -> Router<LocalRequestContext> {
        let router = Router(context: LocalRequestContext.self)
        router.add(middleware: LoopbackGuardMiddleware(guard: LoopbackGuard(endpoint: endpoint)))
        router.get("/v1/health") { _, _ in Response(status: .noContent) }
        router.get("/v1/about") { _, _ in
            try Self.json(
                .object([
                    "versions": .array([.string("v1"), .string("v2")]), "build": .integer(2), "mode": .string("json-rpc"),
                    "version": .string("unset"), "capabilities": .object(["v2/send": .array([.string("quotes"), .string("mentions")])]),
                ]))
        }
        router.post("/v2/send") { request, _ in
            try await handle { try Self.json(.array(try await send(try await Self.body(request))), status: .created) }
        }
        // The deprecated first version: one attachment, one timestamp in the answer.
        router.post("/v1/send") { request, _ in
            try await handle {
                var body = try await Self.body(request)
                if let attachment = body["base64_attachment"], attachment != .null { body["base64_attachments"] = .array([attachment]) }
                // `is_group`: the recipients are groups (their REST ids, with or without the `group.` prefix).
                if body["is_group"] == .bool(true) {
                    let groups = try SignalCLIParameterReader(values: body).list("recipients")
                    body["recipients"] = .array(groups.map { .string($0.hasPrefix("group.") ? $0 : "group." + $0) })
                }
                return try Self.json(try await send(body).first ?? .object([:]), status: .created)
            }
        }
        // In json-rpc mode messages arrive over the WebSocket only; a plain request is told so.
        router.get("/v1/receive/:number") { _, _ in
            try Self.error("In json-rpc mode, messages are received over a WebSocket: connect to this address with an Upgrade")
        }
        addGroupRoutes(to: router)
        addAccountRoutes(to: router)
        for method in [HTTPRequest.Method.post, .delete] {
            forward(router, method, "/v1/reactions/:number", to: "sendReaction") { body, _ in
                try Self.recipient(body).merging([
                    "emoji": body["reaction"] ?? .null, "targetAuthor": body["target_author"] ?? .null,
                    "targetTimestamp": body["timestamp"] ?? .null, "remove": .bool(method == .delete),
                ]) { $1 }
            }
        }
        forward(router, .post, "/v1/receipts/:number", to: "sendReceipt") { body, _ in
            [
                "recipient": body["recipient"] ?? .null, "type": body["receipt_type"] ?? .string("read"),
                "targetTimestamp": body["timestamp"] ?? .null,
            ]
        }
        for method in [HTTPRequest.Method.put, .delete] {
            forward(router, method, "/v1/typing-indicator/:number", to: "sendTyping") { body, _ in
                try Self.recipient(body).merging(["stop": .bool(method == .delete)]) { $1 }
            }
        }
        router.delete("/v1/remote-delete/:number") { request, context in
            try await handle {
                let body = try await Self.body(request)
                var params = try Self.recipient(body)
                params["targetTimestamp"] = body["timestamp"] ?? .null
                let result = try await call("remoteDelete", on: try account(context), params)
                return try Self.json(.object(["timestamp": .string(Self.timestamp(of: result))]), status: .created)
            }
        }
        for (method, path) in Self.unsupportedRoutes {
            router.on(RouterPath(path), method: method) { _, _ in
                try Self.error(
                    "\(method.rawValue) \(path) is not supported by Parley's signal-cli-rest-api surface", status: .notImplemented)
            }
        }
        return router
    }

    /// The `/v1/receive/{number}` WebSocket route.
    func socketRouter() -> Router<RestAPISocketContext> {
        let sockets = Router(context: RestAPISocketContext.self)
        sockets.ws("/v1/receive/:number") { [endpoint] request, context in
            guard LoopbackGuard(endpoint: endpoint).refusal(of: request) == nil,
                let number = context.parameters.get("number"), accounts.named(number) != nil
            else { return .dontUpgrade }
            // A catch-up cursor is a local message id; anything else is refused rather than read as "no catch-up".
            if let since = request.uri.queryParameters["since"], (Int64(since) ?? -1) < 0 { return .dontUpgrade }
            return .upgrade([:])
        } onUpgrade: { [subscribers] inbound, outbound, context in
            guard let number = context.requestContext.parameters.get("number"), let account = accounts.named(number) else { return }
            // Past the cap the socket is closed with 1013 "Try Again Later" (a refused handshake could only be a bare
            // 400 in Hummingbird).
            guard let lease = subscribers.lease() else {
                try await outbound.close(
                    .unknown(Self.tryAgainLater), reason: "too many /v1/receive sockets: at most \(subscribers.limit) at once")
                return
            }
            let hold = StreamHold(lease, limit: Self.stallLimit, closing: context.requestContext.channel, waitingForHead: false)
            let since = context.request.uri.queryParameters["since"].flatMap { Int64($0) }
            try await stream(to: account, after: since, inbound: inbound, outbound: outbound, holding: hold)
        }

        return sockets
    }

    // MARK: Routes

    /// `POST /v2/send`: one signal-cli `send` for every recipient, people and groups together (`{"timestamp": "…"}`, in an
    /// array, 201): it checks every recipient and group before anything is queued, so a request either goes out or
    /// fails whole. Mentions (`{author, start, length}`) become signal-cli's `START:LENGTH:AUTHOR`. A field of the wrong
    /// type is refused, not read as absent; `view_once`, which Parley cannot honour, is refused.
    private func send(_ body: [String: JSONValue]) async throws -> [JSONValue] {
        guard let number = body["number"]?.string else { throw JSONRPCError.userError("number is required") }
        let account = try account(named: number)
        let given = SignalCLIParameterReader(values: body)
        let recipients = try given.list("recipients") + given.list("recipient")
        guard !recipients.isEmpty else {
            throw JSONRPCError.userError("Couldn't process request - please provide at least one recipient")
        }
        if try given.bool("view_once") == true {
            throw JSONRPCError.userError("Couldn't process request - Parley does not send view-once attachments")
        }
        var params: [String: JSONValue] = ["message": body["message"] ?? .string("")]
        params["attachment"] = .array(
            try given.list("base64_attachments").map { attachment in
                .string(attachment.hasPrefix("data:") ? attachment : "data:application/octet-stream;base64," + attachment)
            })
        for (from, to) in [("quote_timestamp", "quoteTimestamp"), ("quote_author", "quoteAuthor"), ("edit_timestamp", "editTimestamp")] {
            if let value = body[from], value != .null { params[to] = value }
        }
        if let mentions = body["mentions"], mentions != .null {
            guard case .array(let list) = mentions else {
                throw JSONRPCError.userError("Couldn't process request - mentions must be a list")
            }
            params["mention"] = .array(
                try list.map { mention in
                    guard case .object(let fields) = mention, let author = fields["author"]?.string,
                        let start = fields["start"]?.integer, let length = fields["length"]?.integer
                    else { throw JSONRPCError.userError("Couldn't process request - a mention needs author, start and length") }
                    return .string("\(start):\(length):\(author)")
                })
        }
        params["recipient"] = .array(recipients.filter { !$0.hasPrefix("group.") }.map(JSONValue.string))
        // Each group once, however often it is named.
        var named = Set<String>()
        let groups = try recipients.filter { $0.hasPrefix("group.") }.map { try Self.signalCLIGroupID($0) }.filter {
            named.insert($0).inserted
        }
        params["groupId"] = .array(groups.map(JSONValue.string))
        let result = try await call("send", on: account, params)
        return [.object(["timestamp": .string(Self.timestamp(of: result))])]
    }

    /// `/v1/receive/{number}`: every incoming message of `account` as a text frame (signal-cli's `{"envelope",
    /// "account"}`, with Parley's local message id as `id` beside them), until the client closes; the socket stays open
    /// while it is idle. With `?since=ID` (the `id` of the last frame seen) every message stored after it comes first,
    /// from the database, then the live ones — each once. A client that falls 10,000 messages behind is closed with
    /// 1013 and comes back with `?since=`; one that leaves a frame untaken for ``stallLimit`` has its connection closed
    /// by `hold`.
    private func stream(
        to account: DaemonAccount, after cursor: Int64?, inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter, holding hold: StreamHold
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { [peers] group in
            // Reading answers the client's pings and notices its close.
            group.addTask { for try await _ in inbound {} }
            group.addTask {
                try await MissedMessages.feed(from: peers, of: account, after: cursor, frame: Self.frame) { text in
                    try await hold.watch.write { try await outbound.write(.text(text)) }
                }
                // The feed ends on its own only when the client fell too far behind.
                try await hold.watch.write {
                    try await outbound.close(.unknown(Self.tryAgainLater), reason: "fell 10,000 messages behind: reconnect with ?since=")
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// One `/v1/receive` frame: signal-cli's parameters for `event`, with the local message id as `id` when it is a
    /// stored message (the cursor a reconnecting client passes as `?since=`).
    static func frame(_ event: DaemonEvent) -> String {
        var params = event.signalCLI
        if case .object(var fields) = params, let message = event.message {
            fields["id"] = .integer(message.id)
            params = .object(fields)
        }
        return (try? JSONEncoder().encode(params)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    // MARK: Helpers

    /// Runs a route, turning a failure into signal-cli-rest-api's `{"error": …}` answer.
    func handle(_ route: () async throws -> Response) async throws -> Response {
        do {
            return try await route()
        } catch let error as HTTPError {
            // A body past the limit (413) and the like keep their status.
            return try Self.error(error.body ?? "\(error.status.reasonPhrase)", status: error.status)
        } catch {
            // What the request got wrong is 400, as upstream; a failure of Parley's own (its database) is 500.
            let failure = JSONRPCError(failure: error)
            return try Self.error(failure.message, status: failure.code == -32603 ? .internalServerError : .badRequest)
        }
    }

    /// Adds a route that is one signal-cli call on the `{number}` account: `params` builds the call's parameters from
    /// the request's JSON body and path parameters; the answer is `status` without a body.
    func forward(
        _ router: Router<LocalRequestContext>, _ method: HTTPRequest.Method, _ path: String, to rpc: String,
        answering status: HTTPResponse.Status = .noContent,
        params: @escaping @Sendable (_ body: [String: JSONValue], _ context: LocalRequestContext) throws -> [String: JSONValue]
    ) {
        router.on(RouterPath(path), method: method) { request, context in
            try await handle {
                let body = try await Self.body(request)
                _ = try await call(rpc, on: try account(context), try params(body, context))
                return Response(status: status)
            }
        }
    }

    /// signal-cli's `method` on `account`, as the JSON-RPC door would call it.
    func call(_ method: String, on account: DaemonAccount, _ params: [String: JSONValue]) async throws -> JSONValue {
        try await account.methods.call(method, params.filter { $0.value != .null })
    }

    /// The answer to a listing route: signal-cli's list `method` for `account`, each entry in this API's shape.
    func list(
        _ method: String, of account: DaemonAccount,
        _ entry: ([String: JSONValue]) -> JSONValue
    ) async throws -> Response {
        guard case .array(let entries) = try await call(method, on: account, [:]) else { return try Self.json(.array([])) }
        return try Self.json(
            .array(
                entries.map { value in
                    guard case .object(let fields) = value else { return value }
                    return entry(fields)
                }))
    }

    func account(_ context: LocalRequestContext) throws -> DaemonAccount {
        try account(named: try context.parameters.require("number"))
    }

    func account(named number: String) throws -> DaemonAccount {
        guard let account = accounts.named(number) else {
            throw JSONRPCError.userError(
                "Unknown account \(number): this server serves \(accounts.all.map(\.signalCLIName).joined(separator: ", "))")
        }
        return account
    }

    /// A request's JSON body (whatever its content type says: signalbot sends `text/plain`).
    static func body(_ request: Request) async throws -> [String: JSONValue] {
        let buffer = try await request.body.collect(upTo: maximumBodyBytes)
        guard buffer.readableBytes > 0 else { return [:] }
        guard case .object(let fields) = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer: buffer)) else {
            throw JSONRPCError.userError("Couldn't process request - invalid request: the body is not a JSON object")
        }
        return fields
    }

    /// signal-cli's recipient parameters for a body's `recipient`: a `group.…` id or a person.
    static func recipient(_ body: [String: JSONValue]) throws -> [String: JSONValue] {
        guard let recipient = body["recipient"]?.string else {
            throw JSONRPCError.userError("Couldn't process request - recipient missing")
        }
        if recipient.hasPrefix("group.") { return ["groupId": .string(try signalCLIGroupID(recipient))] }
        return ["recipient": .string(recipient)]
    }

    /// signal-cli's group id inside a REST group id.
    static func signalCLIGroupID(_ text: String) throws -> String {
        guard let id = RestAPIGroupID.signalCLIID(in: text) else { throw JSONRPCError.userError("Invalid group id \(text)") }
        return id
    }

    /// The `timestamp` of a signal-cli result, as text.
    static func timestamp(of result: JSONValue) -> String {
        if case .object(let fields) = result, let timestamp = fields["timestamp"]?.integer { return String(timestamp) }
        return "0"
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) throws -> Response {
        try JSONResponse.make(value, status: status)
    }

    static func error(_ message: String, status: HTTPResponse.Status = .badRequest) throws -> Response {
        JSONResponse.error(message, status: status)
    }
}
