import Synchronization

/// Holds a new socket's reader until its delivery loop has read the device's sign-in again after subscribing
/// (``DeviceAuthenticator/signInStands(_:)``): nothing the client sends — a message, an ephemeral event — is acted on
/// before the sign-in is known to stand. The reader waits on a continuation (a small frame on its task), not on the
/// store read itself, which would stay in the reader's task memory for the socket's life.
final class SignInGate: Sendable {
    private enum State {
        case pending(waiting: CheckedContinuation<Bool, Never>?)
        case decided(stands: Bool)
    }

    private let state = Mutex(State.pending(waiting: nil))

    /// Whether the sign-in stands, once the delivery loop has decided.
    func wait() async -> Bool {
        await withCheckedContinuation { continuation in
            let decided = state.withLock { state -> Bool? in
                switch state {
                case .decided(let stands):
                    return stands
                case .pending(let waiting):
                    precondition(waiting == nil, "one reader per socket waits")
                    state = .pending(waiting: continuation)
                    return nil
                }
            }
            if let decided { continuation.resume(returning: decided) }
        }
    }

    /// Decides, and lets the reader go; only the first decision counts.
    func decide(stands: Bool) {
        let reader = state.withLock { state -> CheckedContinuation<Bool, Never>?? in
            guard case .pending(let waiting) = state else { return nil }
            state = .decided(stands: stands)
            return .some(waiting)
        }
        if case .some(.some(let waiting)) = reader { waiting.resume(returning: stands) }
    }
}
