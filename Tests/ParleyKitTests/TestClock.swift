import Foundation
import Synchronization

/// A clock tests move by hand (milliseconds since 1970), starting at the real time.
final class TestClock: Sendable {
    private let milliseconds = Mutex(UInt64(Date().timeIntervalSince1970 * 1000))

    /// The current time.
    var now: UInt64 { milliseconds.withLock { $0 } }

    /// Moves the clock forward.
    func advance(by interval: UInt64) { milliseconds.withLock { $0 += interval } }

    /// The clock as the closure clients take.
    var source: @Sendable () -> UInt64 { { self.now } }
}
