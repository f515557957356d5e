import ParleyAPI
import Synchronization

/// The request frames a socket has sent and not yet had answered: each waiting caller is resumed by the response
/// frame with its id (responses may come in any order, even before the caller starts waiting), or with an error once
/// the socket closes.
final class PendingSocketRequests: Sendable {
    private struct State {
        var nextId: UInt64 = 1
        var waiting: [UInt64: CheckedContinuation<SocketResponse, any Error>] = [:]
        var arrived: [UInt64: SocketResponse] = [:]
        var closed = false
    }

    private let state = Mutex(State())

    /// A fresh request id.
    func nextId() -> UInt64 {
        state.withLock { state in
            defer { state.nextId += 1 }
            return state.nextId
        }
    }

    /// Waits for the response to request `id`.
    func response(for id: UInt64) async throws -> SocketResponse {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<SocketResponse, any Error>? = state.withLock { state in
                if let response = state.arrived.removeValue(forKey: id) { return .success(response) }
                if state.closed { return .failure(ParleyError.server(.transport("the socket closed before the server answered"))) }
                state.waiting[id] = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// A response frame arrived.
    func deliver(_ response: SocketResponse) {
        let waiter = state.withLock { state in
            guard let waiter = state.waiting.removeValue(forKey: response.id) else {
                if !state.closed { state.arrived[response.id] = response }
                return nil as CheckedContinuation<SocketResponse, any Error>?
            }
            return waiter
        }
        waiter?.resume(returning: response)
    }

    /// The socket closed: every waiting caller fails, and so does anyone who starts waiting later.
    func close() {
        let waiters = state.withLock { state in
            state.closed = true
            state.arrived.removeAll()
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for waiter in waiters { waiter.resume(throwing: ParleyError.server(.transport("the socket closed before the server answered"))) }
    }
}
