import ParleyAPI
import Synchronization

/// The request frames a socket has sent and not yet had answered: each waiting caller is resumed by the response
/// frame with its id (responses may come in any order, even before the caller starts waiting), or with an error once
/// the socket closes. Requests nobody waits for (ephemeral events on a binary socket) are remembered until answered.
/// Only the first response to an id this socket issued is kept: a server cannot grow this table.
final class PendingSocketRequests: Sendable {
    private struct State {
        var nextId: UInt64 = 1
        /// Issued for a caller who waits, not answered yet.
        var outstanding: Set<UInt64> = []
        /// Issued for nobody to wait on, not answered yet.
        var unawaited: Set<UInt64> = []
        var waiting: [UInt64: CheckedContinuation<SocketResponse, any Error>] = [:]
        var arrived: [UInt64: SocketResponse] = [:]
        var closed = false
    }

    private let state = Mutex(State())

    /// A fresh request id; its caller waits with ``response(for:)``.
    func nextId() -> UInt64 {
        state.withLock { state in
            defer { state.nextId += 1 }
            state.outstanding.insert(state.nextId)
            return state.nextId
        }
    }

    /// A fresh id for a request whose response nobody waits for.
    func nextUnawaitedId() -> UInt64 {
        state.withLock { state in
            defer { state.nextId += 1 }
            state.unawaited.insert(state.nextId)
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

    /// A response frame arrived. Returns `false` when nobody waits or will wait for it (an unawaited request's answer,
    /// an id this socket never issued or one answered already), so the caller can report a failure in it.
    @discardableResult
    func deliver(_ response: SocketResponse) -> Bool {
        let waiter: CheckedContinuation<SocketResponse, any Error>?? = state.withLock { state in
            if state.unawaited.remove(response.id) != nil { return .none }
            guard state.outstanding.remove(response.id) != nil, !state.closed else { return .none }
            if let waiter = state.waiting.removeValue(forKey: response.id) { return waiter }
            state.arrived[response.id] = response
            return .some(nil)
        }
        guard let waiter else { return false }
        waiter?.resume(returning: response)
        return true
    }

    /// The socket closed: every waiting caller fails, and so does anyone who starts waiting later.
    func close() {
        let waiters = state.withLock { state in
            state.closed = true
            state.arrived.removeAll()
            state.outstanding.removeAll()
            state.unawaited.removeAll()
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for waiter in waiters { waiter.resume(throwing: ParleyError.server(.transport("the socket closed before the server answered"))) }
    }
}
