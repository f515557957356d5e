import NIOCore
import NIOEmbedded
import Testing

@testable import ParleyServer

/// ``WebSocketFlushCoalescer`` on an embedded channel: HTTP flushes pass at once; once frames began, the flushes of
/// writes queued together become one, passed on when the event loop runs its queued tasks; a close flushes first.
@Suite struct WebSocketFlushCoalescerTests {
    /// A channel with the coalescer and a counter of the flushes that get past it (toward the socket).
    private func channel() throws -> (EmbeddedChannel, FlushCounter) {
        let counter = FlushCounter()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([counter, WebSocketFlushCoalescer()])
        return (channel, counter)
    }

    private func write(_ text: String, to channel: EmbeddedChannel) {
        channel.pipeline.write(IOData.byteBuffer(ByteBuffer(string: text)), promise: nil)
        channel.pipeline.flush()
    }

    @Test func beforeTheUpgradeEveryFlushPassesAtOnce() throws {
        let (channel, counter) = try channel()
        write("HTTP/1.1 200 OK\r\n\r\n", to: channel)
        #expect(counter.flushes == 1)
        #expect(try channel.readOutbound(as: IOData.self) != nil)
        _ = try channel.finish()
    }

    @Test func framesWrittenTogetherLeaveWithOneFlush() throws {
        let (channel, counter) = try channel()
        channel.pipeline.fireUserInboundEventTriggered(WebSocketFramesBegan())
        for frame in ["one", "two", "three"] { write(frame, to: channel) }
        #expect(counter.flushes == 0)
        #expect(try channel.readOutbound(as: IOData.self) == nil)

        channel.embeddedEventLoop.run()
        #expect(counter.flushes == 1)
        var written: [String] = []
        while case .byteBuffer(let buffer)? = try channel.readOutbound(as: IOData.self) { written.append(String(buffer: buffer)) }
        #expect(written == ["one", "two", "three"])

        // The next frame gets a flush of its own.
        write("four", to: channel)
        channel.embeddedEventLoop.run()
        #expect(counter.flushes == 2)
        _ = try channel.finish()
    }

    @Test func aCloseFlushesTheFramesWrittenBeforeIt() throws {
        let (channel, counter) = try channel()
        channel.pipeline.fireUserInboundEventTriggered(WebSocketFramesBegan())
        write("last frame", to: channel)
        channel.pipeline.close(promise: nil)
        #expect(counter.flushes == 1)
        channel.embeddedEventLoop.run()
        #expect(counter.flushes == 1)
    }
}

/// Counts the flushes that reach it, and passes every event on.
private final class FlushCounter: ChannelOutboundHandler {
    typealias OutboundIn = IOData
    private(set) var flushes = 0

    func flush(context: ChannelHandlerContext) {
        flushes += 1
        context.flush()
    }
}
