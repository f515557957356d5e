import Synchronization

/// A socket's delivery-loop queue, fed by the hub (on the publishing task) and the reader. It holds at most
/// ``capacity`` inputs and ``byteBudget`` bytes of envelopes and events: a device that stops reading while messages
/// keep arriving holds a bounded amount of memory, not a copy of everything sent to it.
///
/// Acks are applied only where their wake-up sits in the queue, after every live envelope queued before the ack
/// arrived (so an envelope cannot be pushed live again after its ack). When an input is dropped (the oldest when the
/// count is reached, the new one when it would pass the byte budget) the queue remembers it: the loop then re-reads
/// the store before pushing anything live, which makes good a dropped envelope and keeps the mailbox order. It also
/// queues an ack wake-up at its end, so a dropped wake-up cannot leave acks waiting.
final class SocketInputQueue: Sendable {
    /// Inputs the queue holds at most.
    static let capacity = 4_096

    /// The inputs, for the delivery loop; it calls ``taken(_:)`` for each.
    let inputs: AsyncStream<SocketInput>
    /// Bytes of envelopes and events the queue holds at most (``SocketInput/queuedBytes``).
    let byteBudget: Int
    private let continuation: AsyncStream<SocketInput>.Continuation
    private let state = Mutex(State())

    private struct State {
        var overflowed = false
        var queuedBytes = 0
        /// Inputs yielded and not yet taken or dropped: at least as many as the stream holds.
        var queuedInputs = 0
    }

    /// An empty queue holding at most `byteBudget` bytes of envelopes and events.
    init(byteBudget: Int) {
        self.byteBudget = byteBudget
        (inputs, continuation) = AsyncStream<SocketInput>.makeStream(bufferingPolicy: .bufferingNewest(Self.capacity))
    }

    /// Queues `input`, or drops it (and remembers so) when its bytes would pass the budget.
    func push(_ input: SocketInput) {
        let size = input.queuedBytes
        let admitted = state.withLock { state in
            guard state.queuedBytes + size <= byteBudget else {
                state.overflowed = true
                return false
            }
            state.queuedBytes += size
            return true
        }
        if admitted {
            guard yield(input) else { return }
        }
        _ = yield(.acks)
    }

    /// The delivery loop took `input` out of ``inputs``: it and its bytes leave the queue's bounds.
    func taken(_ input: SocketInput) {
        let size = input.queuedBytes
        state.withLock { state in
            state.queuedBytes -= size
            state.queuedInputs -= 1
        }
    }

    /// Whether inputs were dropped since the last call.
    func takeOverflow() -> Bool {
        state.withLock { state in
            defer { state.overflowed = false }
            return state.overflowed
        }
    }

    /// The bytes of envelopes and events waiting.
    var queuedBytes: Int { state.withLock { $0.queuedBytes } }

    /// Ends ``inputs`` once what is queued has been taken.
    func finish() { continuation.finish() }

    /// Yields `input`; when that pushed the oldest input out, takes its bytes off, remembers the drop and returns true.
    /// A dropped close event (displaced, revoked) is queued again at the end: the socket still closes, a little later.
    private func yield(_ input: SocketInput) -> Bool {
        var next = input
        var dropped = false
        var attempts = 0
        while true {
            // When the stream may be full, the drop is remembered before it happens: the loop must not take the input
            // behind the dropped one and push it live first.
            state.withLock { state in
                state.queuedInputs += 1
                if state.queuedInputs > Self.capacity { state.overflowed = true }
            }
            guard case .dropped(let oldest) = continuation.yield(next) else { break }
            dropped = true
            attempts += 1
            state.withLock { state in
                state.queuedBytes -= oldest.queuedBytes
                state.queuedInputs -= 1
                state.overflowed = true
            }
            // A queue of nothing but close events would go round for ever; one of them is enough.
            guard oldest.closesSocket, attempts < Self.capacity else { break }
            next = oldest
        }
        return dropped
    }
}
