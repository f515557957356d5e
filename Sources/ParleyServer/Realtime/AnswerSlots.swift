import Synchronization

/// At most `count` answers to one socket's requests at a time (``ServerLimits/socketRequestsInFlight``): its reader
/// takes a slot before it starts an answer, waiting while none is free, and the answer gives the slot back when done.
///
/// The answers run in a discarding task group, which frees each finished answer's task at once. A plain task group
/// keeps a finished child until someone asks for its result: a socket that sent a burst of requests and then went
/// idle kept up to `count` finished tasks, and their memory, for its life.
final class AnswerSlots: Sendable {
    private struct State {
        var free: Int
        /// The reader, waiting for a slot (one reader per socket, so at most one).
        var waiting: CheckedContinuation<Void, Never>?
    }

    private let state: Mutex<State>

    /// `count` slots (at least one).
    init(count: Int) {
        state = Mutex(State(free: max(1, count)))
    }

    /// Takes a slot if one is free, without waiting.
    func tryTake() -> Bool {
        state.withLock { state in
            guard state.free > 0 else { return false }
            state.free -= 1
            return true
        }
    }

    /// Takes a slot, waiting until an answer gives one back.
    func take() async {
        await withCheckedContinuation { continuation in
            let taken = state.withLock { state -> Bool in
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                precondition(state.waiting == nil, "one reader per socket takes slots")
                state.waiting = continuation
                return false
            }
            if taken { continuation.resume() }
        }
    }

    /// Gives a slot back: to the reader if it is waiting for one.
    func giveBack() {
        let reader = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiting = state.waiting else {
                state.free += 1
                return nil
            }
            state.waiting = nil
            return waiting
        }
        reader?.resume()
    }
}
