import Foundation
import Synchronization

/// Message timestamps that never repeat or go backwards within a process (they identify messages together with
/// the author, so two messages must never share one).
public final class MonotonicTimestamp: Sendable {
    private let last = Mutex<UInt64>(0)

    /// A source.
    public init() {}

    /// Milliseconds since 1970, strictly greater than the previous value.
    public func next() -> UInt64 {
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        return last.withLock { last in
            last = max(now, last + 1)
            return last
        }
    }
}
