import Synchronization

/// The server's envelope requests on a binary socket that the client has not answered yet: ``MessageSocket/Writer``
/// answers the one that carried an envelope when the caller acknowledges it. Bounded: past ``capacity`` unanswered
/// envelopes (an honest server keeps at most 100 in flight), and for guids longer than ``maxGuidLength``, nothing is
/// recorded; those envelopes stay unacknowledged and come again on the next connection.
final class SocketDeliveries: Sendable {
    static let capacity = 10_000
    static let maxGuidLength = 64

    private struct State {
        var binary = false
        var requests: [String: UInt64] = [:]
    }

    private let state = Mutex(State())

    /// Whether the server sends binary frames (set by the first one).
    var binary: Bool {
        get { state.withLock { $0.binary } }
        set { state.withLock { $0.binary = newValue } }
    }

    /// Envelope `guid` arrived in request `id`.
    func delivered(_ guid: String, in id: UInt64) {
        state.withLock { state in
            guard guid.utf8.count <= Self.maxGuidLength, state.requests.count < Self.capacity || state.requests[guid] != nil else { return }
            state.requests[guid] = id
        }
    }

    /// The request to answer for envelope `guid`, forgetting it; `nil` when it did not come in a binary request.
    func answer(_ guid: String) -> UInt64? {
        state.withLock { $0.requests.removeValue(forKey: guid) }
    }
}
