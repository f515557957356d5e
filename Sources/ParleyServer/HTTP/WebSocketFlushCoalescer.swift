import NIOCore

/// Lets the frames an upgraded WebSocket is given together leave in one `writev`: a flush is passed on once the event
/// loop has run the tasks already queued, so the writes those tasks make share it (as Netty's
/// `FlushConsolidationHandler` does, without its flush on a channel turning unwritable: the wait is one pass of the
/// event loop's queue).
///
/// The WebSocket library flushes every frame it writes, and each flush was a system call of its own: 14% of the
/// server's CPU when sockets carry thousands of messages a second (BENCHMARKS.md). Frames are handed to the event loop
/// one task each — the envelopes a delivery loop pushes, the answers to a socket's requests — so when a socket is busy
/// several are often queued at once; those already queued when the flush runs go out together. A frame waits at most
/// for the tasks queued before its flush, never for a timer.
///
/// Flushes pass straight through until ``WebSocketMaskRequirement`` sees the `101 Switching Protocols` written and
/// announces ``WebSocketFramesBegan``, so plain HTTP is untouched; the `101` itself leaves with the first deferred
/// flush. A close flushes what waits first, so no frame written before it is lost. It sits right after
/// ``WebSocketMaskRequirement`` and is not removable.
final class WebSocketFlushCoalescer: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// Set once WebSocket frames began.
    private var coalescing = false
    /// A flush was asked for and is queued on the event loop.
    private var flushQueued = false

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is WebSocketFramesBegan { coalescing = true }
        context.fireUserInboundEventTriggered(event)
    }

    func flush(context: ChannelHandlerContext) {
        guard coalescing else { return context.flush() }
        guard !flushQueued else { return }
        flushQueued = true
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.execute {
            let (coalescer, context) = bound.value
            coalescer.flushQueuedWrites(context)
        }
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        flushQueuedWrites(context)
        context.close(mode: mode, promise: promise)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        // Not removable: it leaves only with its closed channel, and the queued task then finds nothing to flush.
        flushQueued = false
    }

    /// Passes on the queued flush, if one is still waiting.
    private func flushQueuedWrites(_ context: ChannelHandlerContext) {
        guard flushQueued else { return }
        flushQueued = false
        context.flush()
    }
}
