import ParleyAPI
import Synchronization

/// The request frames a socket has sent and not yet had answered: each waiting caller is resumed by the response
/// frame with its id (responses may come in any order, even before the caller starts waiting), or with an error once
/// the socket closes. Requests nobody waits for (ephemeral events on a binary socket) are remembered until answered.
/// Responses to ids this socket never issued are not kept: a server cannot grow this table.
final class PendingSocketRequests: Sendable {
    private struct State {
        var nextId: UInt64 = 1
        var waiting: [UInt64: CheckedContinuation<SocketResponse, any Error>] = [:]
        var arrived: [UInt64: SocketResponse] = [:]
        var unawaited: Set<UInt64> = []
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
    /// or an id this socket never issued), so the caller can report a failure in it.
    @discardableResult
    func deliver(_ response: SocketResponse) -> Bool {
        let waiter: CheckedContinuation<SocketResponse, any Error>?? = state.withLock { state in
            if let waiter = state.waiting.removeValue(forKey: response.id) { return waiter }
            if state.unawaited.remove(response.id) != nil { return .none }
            guard response.id != 0, response.id < state.nextId, !state.closed else { return .none }
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
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for waiter in waiters { waiter.resume(throwing: ParleyError.server(.transport("the socket closed before the server answered"))) }
    }
}
