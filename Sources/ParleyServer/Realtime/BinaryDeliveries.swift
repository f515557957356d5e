import Synchronization

/// The server's requests on one binary socket (``ParleyAPI/BinarySocketMessage``): their ids, and which envelope each
/// `PUT /api/v1/message` carried, so that the client's `200` response to it acknowledges that envelope. The delivery
/// loop adds an entry per envelope sent; the reader takes it when the response arrives. At most a window's worth of
/// envelopes is unanswered at a time (``ServerLimits/socketWindow``), which bounds the table.
final class BinaryDeliveries: Sendable {
    private struct State {
        var nextId: UInt64 = 1
        var envelopes: [UInt64: String] = [:]
    }

    private let state = Mutex(State())

    /// The id for a request that carries no envelope (queue empty, an ephemeral event).
    func nextId() -> UInt64 {
        state.withLock { state in
            defer { state.nextId += 1 }
            return state.nextId
        }
    }

    /// The id for the request carrying envelope `guid`.
    func id(delivering guid: String) -> UInt64 {
        state.withLock { state in
            defer { state.nextId += 1 }
            state.envelopes[state.nextId] = guid
            return state.nextId
        }
    }

    /// The envelope request `id` carried, forgetting it; `nil` for another request or an id already answered.
    func answered(_ id: UInt64) -> String? {
        state.withLock { $0.envelopes.removeValue(forKey: id) }
    }
}
