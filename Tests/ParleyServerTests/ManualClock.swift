import Synchronization

/// A clock the tests move by hand (milliseconds since 1970), for windows that would otherwise take minutes.
final class ManualClock: Sendable {
    /// Guards the current time.
    private let milliseconds = Mutex<UInt64>(1_700_000_000_000)

    /// The current time.
    var now: UInt64 { milliseconds.withLock { $0 } }

    /// Moves the clock forward.
    func advance(by interval: UInt64) { milliseconds.withLock { $0 += interval } }
}
