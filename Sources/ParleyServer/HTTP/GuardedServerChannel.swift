import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// The server's child channel: Hummingbird's HTTP/1 + WebSocket upgrade channel behind the ``ConnectionGuard``, with a
/// deadline for the first request head, a read timeout, the WebSocket masking rule (``WebSocketMaskRequirement``),
/// coalesced flushes (``WebSocketFlushCoalescer``) and keep-alive pings (``WebSocketKeepAlive``) in front of its
/// pipeline, and a 400 for what its HTTP decoder cannot parse (``MalformedRequestResponder``). A refused connection
/// gets a raw `503` JSON answer with `Retry-After` and is closed before any request is parsed.
struct GuardedServerChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let connections: ConnectionGuard
    /// Authenticates an `Authorization` value for a socket upgrade: a ``VerifiedUpgrades`` ticket for its device, or
    /// `nil` (then no upgrade).
    let authenticateUpgrade: @Sendable (String) async -> String?
    /// How often an upgraded WebSocket is pinged.
    let keepAliveInterval: Duration

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard connections.admit(channel) else {
            // Answered and closed by the first handler, before anything is parsed.
            do {
                try channel.pipeline.syncOperations.addHandler(RefuseConnection(), position: .first)
            } catch {
                channel.close(promise: nil)
            }
            return base.setup(channel: channel, logger: logger)
        }
        do {
            try channel.pipeline.syncOperations.addHandlers(
                [
                    WebSocketMaskRequirement(), WebSocketFlushCoalescer(), WebSocketKeepAlive(interval: TimeAmount(keepAliveInterval)),
                    IdleStateHandler(readTimeout: TimeAmount(connections.limits.readTimeout)), ReadTimeoutCloser(),
                    FirstRequestHeadDeadline(timeout: TimeAmount(connections.limits.requestHeadTimeout)),
                ],
                position: .first)
        } catch {
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(error)
        }
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            // Between the HTTP decoder the base put in and its upgrade handler: only the socket route may upgrade. Right
            // after the decoder, before the filter: malformed bytes are answered with a 400 (the decoder's error).
            let decoder = try channel.pipeline.syncOperations.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            let responder = MalformedRequestResponder()
            try channel.pipeline.syncOperations.addHandler(responder, position: .after(decoder.handler))
            try channel.pipeline.syncOperations.addHandler(
                UpgradeRequestFilter(authenticate: authenticateUpgrade),
                position: .after(responder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Answers a connection over the ``ConnectionLimits`` with a `503` JSON error and `Retry-After`, then closes it.
final class RefuseConnection: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private static let answer: String = {
        let body = #"{"code":"too_many_connections","message":"too many connections; retry later","retryAfter":10}"#
        return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 10\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
    }()

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        refuse(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}  // nothing of a refused connection is parsed

    private func refuse(_ context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(NIOAny(ByteBuffer(string: Self.answer))).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// Closes a connection that sent nothing for the read timeout.
final class ReadTimeoutCloser: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}

/// Closes a connection whose first request head (up to the blank line) has not fully arrived within `timeout` of its
/// first byte — however slowly its bytes trickle in. Once the head is complete it leaves the pipeline; later requests
/// on a kept-alive connection are bounded by the read timeout and Hummingbird's idle timeout.
final class FirstRequestHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// How many bytes of the head's end, `\r\n\r\n`, the bytes so far end with (across reads).
    private var matched = 0

    init(timeout: TimeAmount) { self.timeout = timeout }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // The clock starts with the head's first byte: a client that connects ahead of time and stays silent (a
        // pre-connected pool) is the read timeout's business, one that starts a head must finish it in time.
        if deadline == nil {
            let channel = context.channel
            deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        }
        var complete = false
        for byte in unwrapInboundIn(data).readableBytesView {
            if byte == (matched % 2 == 0 ? 13 : 10) {
                matched += 1
                if matched == 4 {
                    complete = true
                    break
                }
            } else {
                matched = byte == 13 ? 1 : 0
            }
        }
        context.fireChannelRead(data)
        if complete {
            deadline?.cancel()
            deadline = nil
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }
}
