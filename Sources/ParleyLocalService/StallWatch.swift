import Synchronization

/// Notices a streaming client that stops reading: every write to it goes through ``write(_:)``, and ``watch()`` throws
/// once one has waited longer than ``limit`` (the client's buffers are full and it takes nothing), so the door can close
/// the connection rather than hold it, its feed and its buffer forever. One watch per stream, whatever the number of
/// writes.
public final class StallWatch: Sendable {
    /// How long a write may wait for the client.
    public let limit: Duration
    private let waitingSince: Mutex<ContinuousClock.Instant?>

    /// A watch that gives up on writes waiting longer than `limit`; with `waiting`, one that counts a write already
    /// under way (a response head the server writes before any of the stream's own) until ``stopWaiting()``.
    public init(limit: Duration, waiting: Bool = false) {
        self.limit = limit
        waitingSince = Mutex(waiting ? .now : nil)
    }

    /// Runs `body` (one write to the client), timed.
    public func write(_ body: () async throws -> Void) async throws {
        waitingSince.withLock { $0 = .now }
        defer { stopWaiting() }
        try await body()
    }

    /// Ends the wait a write began (one of ``write(_:)``'s, or the one `waiting` counted from the start).
    public func stopWaiting() {
        waitingSince.withLock { $0 = nil }
    }

    /// Returns only by throwing: ``StalledClientError/stalled(limit:)`` once a write has waited longer than ``limit``
    /// (noticed within a quarter of it), `CancellationError` when the task is cancelled.
    public func watch() async throws {
        while true {
            try await Task.sleep(for: limit / 4)
            if isStalled(at: .now) { throw StalledClientError.stalled(limit: limit) }
        }
    }

    /// Whether, at `now`, a write has been waiting longer than ``limit``.
    public func isStalled(at now: ContinuousClock.Instant) -> Bool {
        guard let since = waitingSince.withLock({ $0 }) else { return false }
        return now - since > limit
    }
}
