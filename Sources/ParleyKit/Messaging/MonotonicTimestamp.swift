import Foundation
import Synchronization

/// Message timestamps that never repeat or go backwards within a process (they identify messages together with
/// the author, so two messages must never share one).
public final class MonotonicTimestamp: Sendable {
    private let last = Mutex<UInt64>(0)
    private let wallClock: @Sendable () -> UInt64

    /// A source over `wallClock` (milliseconds since 1970).
    public init(wallClock: @escaping @Sendable () -> UInt64 = { UInt64(Date().timeIntervalSince1970 * 1000) }) {
        self.wallClock = wallClock
    }

    /// Milliseconds since 1970 by the wall clock, strictly greater than the previous value.
    public func next() -> UInt64 {
        let now = wallClock()
        return last.withLock { last in
            last = max(now, last + 1)
            return last
        }
    }
}
