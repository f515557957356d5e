import NIOCore
import NIOHTTP1
import ParleyAPI

/// Keeps the protocol upgrade to the one request that may make it: a WebSocket upgrade of `GET /v1/websocket` with
/// credentials that verify. Any other request with an `Upgrade` header — `curl --http2`'s h2c offer, a WebSocket upgrade
/// of another route, one without credentials or with wrong ones — loses the header and is served as the plain HTTP/1.1
/// request it also is (RFC 9110 §7.8 lets a server ignore an upgrade offer), so it gets its route's answer (401 JSON for
/// the socket without valid credentials) instead of the WebSocket library's empty 400. Sits between the HTTP decoder
/// and the upgrade handler; while a socket request's credentials are checked (off the event loop), the connection
/// reads nothing more and what already arrived (the request's parts, events) waits here in order, at most
/// ``maximumWaitingParts`` of it.
/// The decoder has already taken an offer with `Connection: upgrade` for an upgrade and parses nothing after it, so a
/// stripped request is answered with `Connection: close`: the client opens a new connection for its next request.
final class UpgradeRequestFilter: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Parts that may wait for a credential check; more closes the connection (a socket request has a head and an end).
    static let maximumWaitingParts = 16

    /// Authenticates an `Authorization` value: a ticket for the device it names (``VerifiedUpgrades``), or `nil` when
    /// its credential is wrong.
    private let authenticate: @Sendable (String) async -> String?
    /// The parts that arrived while credentials were being checked (the head first); `nil` when nothing waits.
    private var waiting: [HTTPServerRequestPart]?
    /// Inbound events that arrived while parts waited (a half-closed input), delivered after them.
    private var waitingEvents: [Any] = []
    /// Whether the pipeline asked for a read while parts waited.
    private var readRequested = false
    private var removed = false

    /// A filter that lets a socket upgrade through when `authenticate` gives a ticket for its `Authorization`, and
    /// hands the ticket on in the request (``VerifiedUpgrades/header``).
    init(authenticate: @escaping @Sendable (String) async -> String?) {
        self.authenticate = authenticate
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if waiting != nil {
            waiting?.append(part)
            if (waiting?.count ?? 0) > Self.maximumWaitingParts { context.close(promise: nil) }
            return
        }
        guard case .head(var head) = part, head.headers.contains(name: "upgrade") else {
            // A ticket only this filter writes: a client's own never goes on, with any request.
            if case .head(var head) = part, head.headers.contains(name: VerifiedUpgrades.header) {
                head.headers.remove(name: VerifiedUpgrades.header)
                context.fireChannelRead(wrapInboundOut(.head(head)))
            } else {
                context.fireChannelRead(data)
            }
            return
        }
        head.headers.remove(name: VerifiedUpgrades.header)
        guard Self.isSocketUpgrade(head), let authorization = head.headers.first(name: "authorization") else {
            context.fireChannelRead(wrapInboundOut(.head(Self.stripped(head))))
            return
        }
        waiting = [.head(head)]
        let eventLoop = context.eventLoop
        let handler = NIOLoopBound((self, context), eventLoop: eventLoop)
        let check = authenticate
        Task {
            let ticket = await check(authorization)
            eventLoop.execute {
                let (filter, context) = handler.value
                filter.release(ticket: ticket, context: context)
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if waiting == nil { context.fireChannelReadComplete() }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if waiting != nil {
            waitingEvents.append(event)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func read(context: ChannelHandlerContext) {
        if waiting != nil {
            readRequested = true
        } else {
            context.read()
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        removed = true
    }

    /// Hands on what waited: the head as it came when the credentials verified (the upgrade handler takes it, and after
    /// an upgrade WebSocket frames, not HTTP parts, come this way, so the filter leaves the pipeline), else stripped.
    private func release(ticket: String?, context: ChannelHandlerContext) {
        guard !removed, let parts = waiting else { return }
        waiting = nil
        let verified = ticket != nil
        for (index, part) in parts.enumerated() {
            if case .head(let head) = part {
                // The ticket goes with the request that was authenticated, the first; a request pipelined behind it
                // is served as plain HTTP.
                let authenticated = index == 0 ? ticket : nil
                context.fireChannelRead(wrapInboundOut(.head(authenticated.map { Self.carrying($0, head) } ?? Self.stripped(head))))
            } else {
                context.fireChannelRead(wrapInboundOut(part))
            }
        }
        context.fireChannelReadComplete()
        for event in waitingEvents { context.fireUserInboundEventTriggered(event) }
        waitingEvents.removeAll()
        if readRequested {
            readRequested = false
            context.read()
        }
        if verified {
            // The answer to this request decides whether frames follow: the masking rule starts reading then.
            (try? context.pipeline.syncOperations.handler(type: WebSocketMaskRequirement.self))?.expectUpgrade()
            // The malformed-request responder reads HTTP parts too: it leaves with the filter.
            if let responder = try? context.pipeline.syncOperations.context(handlerType: MalformedRequestResponder.self) {
                context.pipeline.syncOperations.removeHandler(context: responder, promise: nil)
            }
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    /// `head` with `ticket` as the only ``VerifiedUpgrades/header`` (one a client sent is never read).
    private static func carrying(_ ticket: String, _ head: HTTPRequestHead) -> HTTPRequestHead {
        var head = head
        head.headers.replaceOrAdd(name: VerifiedUpgrades.header, value: ticket)
        return head
    }

    /// `head` without its upgrade offer (and closing the connection after its answer when it asked to upgrade it), and
    /// without a ``VerifiedUpgrades/header`` a client sent.
    private static func stripped(_ head: HTTPRequestHead) -> HTTPRequestHead {
        var head = head
        head.headers.remove(name: VerifiedUpgrades.header)
        let tokens = head.headers["connection"].flatMap { $0.split(separator: ",") }.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        head.headers.remove(name: "upgrade")
        head.headers.remove(name: "http2-settings")
        if tokens.contains("upgrade") {
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        return head
    }

    /// Whether `head` is a WebSocket upgrade of the socket route.
    private static func isSocketUpgrade(_ head: HTTPRequestHead) -> Bool {
        let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? head.uri
        return head.method == .GET && path == APIRoutes.webSocket
            && head.headers["upgrade"].contains { $0.lowercased().contains("websocket") }
    }
}
