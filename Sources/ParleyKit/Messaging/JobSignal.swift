import Synchronization

/// Tells a long-running job runner (``ParleyClient/listen(onOutcome:)``) that the job table changed: set by a
/// database observer, taken by the runner's loop.
final class JobSignal: Sendable {
    private let changed = Mutex(true)

    /// Notes a change.
    func set() { changed.withLock { $0 = true } }

    /// Whether anything changed since the last call (and clears it).
    func take() -> Bool {
        changed.withLock { changed in
            defer { changed = false }
            return changed
        }
    }
}
