import NIOCore

/// Sent through the pipeline by ``WebSocketMaskRequirement`` when a connection's `101 Switching Protocols` goes out:
/// WebSocket frames begin.
struct WebSocketFramesBegan: Sendable {}

/// Pings an upgraded WebSocket every `interval` from the event loop (RFC 6455 §5.5.2), so that intermediaries keep the
/// connection and a live client answers with a pong. A client that answers nothing is closed by the connection's read
/// timeout (``ConnectionLimits/readTimeout``, at least three intervals), which every pong resets.
///
/// This replaces the WebSocket library's own keep-alive, which runs a task per socket: a timer on the event loop costs
/// a few hundred bytes where a task kept 2–3 KB per idle socket (BENCHMARKS.md, idle sockets).
final class WebSocketKeepAlive: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// A ping with no payload (server to client, so unmasked).
    private static let ping: [UInt8] = [0x89, 0x00]

    private let interval: TimeAmount
    private var pinger: RepeatedTask?

    init(interval: TimeAmount) {
        self.interval = interval
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is WebSocketFramesBegan, pinger == nil, interval > .zero {
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            pinger = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
                bound.value.writeAndFlush(NIOAny(ByteBuffer(bytes: Self.ping)), promise: nil)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    private func stop() {
        pinger?.cancel()
        pinger = nil
    }
}
