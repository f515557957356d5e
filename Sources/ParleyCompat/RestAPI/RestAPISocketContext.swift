import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of `parley rest-api`'s `/v1/receive` socket: Hummingbird's WebSocket context, with the
/// connection's channel, so a socket whose client stopped reading can be closed (a pending write, a close frame
/// included, ends only when its connection does).
struct RestAPISocketContext: RequestContext, WebSocketRequestContext {
    /// Hummingbird's part of the context.
    var coreContext: CoreRequestContextStorage
    /// Where the socket's handler is passed from the router to the upgrade.
    let webSocket: WebSocketHandlerReference<Self>
    /// The connection the handshake came on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }
}
