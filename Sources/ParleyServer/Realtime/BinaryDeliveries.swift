import Synchronization

/// The server's requests on one binary socket (``ParleyAPI/BinarySocketMessage``): their ids, and which envelope each
/// `PUT /api/v1/message` carried, so that the client's `200` response to it acknowledges that envelope. The delivery
/// loop adds an entry per envelope sent; the reader takes it when a 2xx response arrives. Every entry is an envelope in
/// flight, and at most a window's worth is (``ServerLimits/socketWindow``), which bounds the table.
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

    /// The envelope to delete now that request `id` was answered with `status`: on a 2xx, the envelope it carried
    /// (forgotten from then on); `nil` for another request, an id already acknowledged, or another status — the
    /// envelope then stays in flight, as an envelope a JSON client has not acknowledged yet, and a later 2xx to the same
    /// id still acknowledges it.
    func acknowledged(_ id: UInt64, status: UInt32) -> String? {
        guard (200..<300).contains(status) else { return nil }
        return state.withLock { $0.envelopes.removeValue(forKey: id) }
    }
}
