import Synchronization

/// The daemon's connected clients, which all hear of incoming messages: line sessions and event streams.
final class DaemonPeers: Sendable {
    private let listeners = Mutex<(next: Int, all: [Int: @Sendable (DaemonEvent) -> Void])>((0, [:]))

    /// Adds a listener; returns its handle for ``remove(_:)``.
    func add(_ listener: @escaping @Sendable (DaemonEvent) -> Void) -> Int {
        listeners.withLock { state in
            state.next += 1
            state.all[state.next] = listener
            return state.next
        }
    }

    /// Forgets a listener that went away.
    func remove(_ id: Int) {
        _ = listeners.withLock { $0.all.removeValue(forKey: id) }
    }

    /// Tells every listener about an incoming message.
    func notifyAll(_ event: DaemonEvent) {
        for listener in listeners.withLock({ Array($0.all.values) }) { listener(event) }
    }
}
