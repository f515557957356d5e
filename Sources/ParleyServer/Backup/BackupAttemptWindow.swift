import Foundation
import Synchronization

/// Counts PIN backup attempts per account in a sliding window: at most `limit` in any `window`, exactly (a log of
/// attempt times, not a token bucket). A refused attempt gets ``ServerError/tooManyRequests(retryAfterSeconds:)``
/// with the seconds until the oldest attempt leaves the window, and is not logged.
///
/// The window is this process's; the failure count that wipes a backup is in the store, shared by every process.
final class BackupAttemptWindow: Sendable {
    private struct Key: Hashable {
        let accountId: String
        let action: String
    }

    /// Guards the times (milliseconds) of each account's attempts still inside the window, oldest first.
    private let attempts = Mutex([Key: [UInt64]]())
    private let limit: Int
    private let window: UInt64
    private let clock: @Sendable () -> UInt64
    /// Accounts tracked before those with no attempt in the window are forgotten.
    private let maximumTracked: Int

    /// A window allowing `settings.attemptsPerWindow` per `settings.attemptWindowMilliseconds`, on `settings.clock`.
    init(settings: BackupSettings, maximumTracked: Int = 100_000) {
        limit = settings.attemptsPerWindow
        window = settings.attemptWindowMilliseconds
        clock = settings.clock
        self.maximumTracked = maximumTracked
    }

    /// Logs an attempt at `action` on `accountId`'s backup, or throws 429 when the window is full.
    func take(_ action: String, accountId: String) throws {
        let now = clock()
        let window = self.window, limit = self.limit, maximumTracked = self.maximumTracked
        let wait: UInt64? = attempts.withLock { log in
            let key = Key(accountId: accountId, action: action)
            var times = (log[key] ?? []).filter { $0 &+ window > now }
            guard times.count < limit else {
                log[key] = times
                return (times.first ?? now) &+ window &- now
            }
            times.append(now)
            log[key] = times
            if log.count > maximumTracked { log = log.filter { entry in entry.value.contains { $0 &+ window > now } } }
            return nil
        }
        if let wait { throw ServerError.tooManyRequests(retryAfterSeconds: max(1, Int((wait + 999) / 1000))) }
    }
}
