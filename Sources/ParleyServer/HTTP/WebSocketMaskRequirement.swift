import NIOCore

/// RFC 6455 §5.1: a server must close the connection on a client frame that is not masked. The WebSocket library
/// takes unmasked frames as they come, so this handler, at the front of every connection, reads the frame headers of
/// a connection once it has upgraded and, on an unmasked frame, sends a close frame with 1002 (protocol error) and
/// closes the connection before the frame reaches the session.
///
/// It learns of the upgrade from ``UpgradeRequestFilter``, which arms it when it lets an upgrade request through
/// (``expectUpgrade()``): the next answer written is that request's, and only if it is `101 Switching Protocols` do
/// frames begin (a response body that happens to start with those bytes cannot switch it). A client may not send
/// before it has the 101 (RFC 6455 §4.1); bytes one sends early anyway reach the WebSocket library unchecked.
final class WebSocketMaskRequirement: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private enum State {
        /// HTTP: bytes pass untouched.
        case http
        /// An upgrade request went through: the next response head decides.
        case upgradeRequested
        /// WebSocket frames: `header` holds a frame header's bytes read so far; `payload` counts the current frame's
        /// payload bytes still to come.
        case frames(header: [UInt8], payload: UInt64)
        /// An unmasked frame arrived: nothing more is read.
        case refused
    }

    private var state = State.http
    private static let switchingProtocols = Array("HTTP/1.1 101".utf8)
    /// A close frame (server to client, so unmasked) with status 1002.
    private static let protocolErrorClose: [UInt8] = [0x88, 0x02, 0x03, 0xEA]

    /// Called by ``UpgradeRequestFilter`` (on the event loop) when it passes an upgrade request on.
    func expectUpgrade() {
        if case .http = state { state = .upgradeRequested }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .upgradeRequested = state, case .byteBuffer(let buffer) = unwrapOutboundIn(data), buffer.readableBytes > 0 {
            let switching = buffer.readableBytesView.starts(with: Self.switchingProtocols)
            state = switching ? .frames(header: [], payload: 0) : .http
            context.write(data, promise: promise)
            // ``WebSocketKeepAlive`` starts pinging.
            if switching { context.fireUserInboundEventTriggered(WebSocketFramesBegan()) }
            return
        }
        context.write(data, promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch state {
        case .http, .upgradeRequested:
            context.fireChannelRead(data)
        case .refused:
            return
        case .frames(var header, var payload):
            let buffer = unwrapInboundIn(data)
            var bytes = buffer.readableBytesView[...]
            while !bytes.isEmpty {
                if payload > 0 {
                    let skipped = min(UInt64(bytes.count), payload)
                    bytes = bytes.dropFirst(Int(skipped))
                    payload -= skipped
                    continue
                }
                header.append(bytes.removeFirst())
                guard let length = Self.headerLength(header) else { continue }
                guard header[1] & 0x80 != 0 else { return refuse(context) }
                guard header.count == length else { continue }
                payload = Self.payloadLength(header)
                header.removeAll(keepingCapacity: true)
            }
            state = .frames(header: header, payload: payload)
            context.fireChannelRead(data)
        }
    }

    /// The full header's length once its first two bytes are known (2, plus 2 or 8 for the extended length, plus 4
    /// for the mask), else `nil`.
    private static func headerLength(_ header: [UInt8]) -> Int? {
        guard header.count >= 2 else { return nil }
        let extended =
            switch header[1] & 0x7F {
            case 126: 2
            case 127: 8
            default: 0
            }
        return 2 + extended + (header[1] & 0x80 != 0 ? 4 : 0)
    }

    /// The payload length a complete header gives.
    private static func payloadLength(_ header: [UInt8]) -> UInt64 {
        switch header[1] & 0x7F {
        case 126: return UInt64(header[2]) << 8 | UInt64(header[3])
        case 127: return header[2..<10].reduce(0) { $0 << 8 | UInt64($1) }
        case let length: return UInt64(length)
        }
    }

    private func refuse(_ context: ChannelHandlerContext) {
        state = .refused
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(ByteBuffer(bytes: Self.protocolErrorClose)))).whenComplete { _ in
            channel.close(promise: nil)
        }
        // A peer that reads nothing cannot hold the connection open by leaving the close frame unsent.
        context.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
    }
}
