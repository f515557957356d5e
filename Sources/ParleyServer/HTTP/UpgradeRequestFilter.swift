import NIOCore
import NIOHTTP1
import ParleyAPI

/// Keeps the protocol upgrade to the one request that may make it: a WebSocket upgrade of `GET /v1/websocket` carrying
/// credentials. Any other request with an `Upgrade` header — `curl --http2`'s h2c offer, a WebSocket upgrade of another
/// route, one without credentials — loses the header and is served as the plain HTTP/1.1 request it also is (RFC 9110
/// §7.8 lets a server ignore an upgrade offer), so it gets its route's answer (401 JSON for the socket without
/// credentials) instead of the upgrade handler's empty reply. Sits between the HTTP decoder and the upgrade handler.
/// The decoder has already taken an offer with `Connection: upgrade` for an upgrade and parses nothing after it, so such
/// a request is answered with `Connection: close`: the client opens a new connection for its next request.
final class UpgradeRequestFilter: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), head.headers.contains(name: "upgrade") else {
            context.fireChannelRead(data)
            return
        }
        if Self.mayUpgrade(head) {
            // The upgrade handler decides; after an upgrade WebSocket frames, not HTTP parts, come through here, so the
            // filter leaves the pipeline (a declined upgrade is answered and closed by the WebSocket library).
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        let tokens = head.headers["connection"].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        head.headers.remove(name: "upgrade")
        head.headers.remove(name: "http2-settings")
        if tokens.contains("upgrade") {
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// Whether `head` is a WebSocket upgrade of the socket route with credentials (the upgrade handler decides the rest).
    private static func mayUpgrade(_ head: HTTPRequestHead) -> Bool {
        let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? head.uri
        return head.method == .GET && path == APIRoutes.webSocket && head.headers.contains(name: "authorization")
            && head.headers["upgrade"].contains { $0.lowercased().contains("websocket") }
    }
}
