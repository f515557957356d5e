import Foundation
import Synchronization

/// Counts PIN backup attempts per account in a sliding window: at most `limit` in any `window`, exactly (a log of
/// attempt times, not a token bucket). A refused attempt gets ``ServerError/tooManyRequests(retryAfterSeconds:)``
/// with the seconds until the oldest attempt leaves the window, and is not logged.
///
/// The window is this process's; the failure count that wipes a backup is in the store, shared by every process.
///
/// Usernames no account holds get a window of their own too (``take(_:unknownUsername:)``), so that the route answers
/// them exactly as it answers an account without a backup — a sixth guess in five minutes is a 429 either way — and
/// does not tell registered usernames from others. Past ``maximumTracked`` subjects the least recently used are
/// forgotten, accounts and unknown names alike.
final class BackupAttemptWindow: Sendable {
    private struct Key: Hashable {
        /// An account id, or `?` and a lower-cased username no account holds.
        let subject: String
        let action: String
    }

    /// Guards the times (milliseconds) of each account's attempts still inside the window, oldest first.
    private let attempts = Mutex([Key: [UInt64]]())
    private let limit: Int
    private let window: UInt64
    private let clock: @Sendable () -> UInt64
    /// Subjects tracked before those with no attempt in the window are forgotten, and — when that is not enough — the
    /// least recently used half, whatever the subject (a flood of made-up names cannot grow the log without bound).
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
        try take(Key(subject: accountId, action: action))
    }

    /// Logs an attempt at `action` for `username`, which no account holds, or throws 429 when its window is full. Its
    /// case is folded as the stores fold a username's (ASCII only, and a username is ASCII); a name that no username
    /// can be shares one window with every other such name — no one can tell them apart anyway.
    func take(_ action: String, unknownUsername username: String) throws {
        let subject = Self.couldBeUsername(username) ? username.lowercased() : "(no username)"
        try take(Key(subject: "?" + subject, action: action))
    }

    /// Whether `name` has a username's shape: 3–32 ASCII letters, digits, `.`, `_` or `-` (what registration takes).
    static func couldBeUsername(_ name: String) -> Bool {
        (3...32).contains(name.utf8.count) && name.isASCIIToken
    }

    private func take(_ key: Key) throws {
        let now = clock()
        let window = self.window
        let limit = self.limit
        let maximumTracked = self.maximumTracked
        let wait: UInt64? = attempts.withLock { log in
            var times = (log[key] ?? []).filter { $0 &+ window > now }
            guard times.count < limit else {
                log[key] = times
                return (times.first ?? now) &+ window &- now
            }
            times.append(now)
            log[key] = times
            if log.count > maximumTracked { log = log.filter { entry in entry.value.contains { $0 &+ window > now } } }
            // Still over: the least recently used half goes, whatever its subject — forgetting unknown names first
            // would let a flood tell them from accounts (the store's failure count still caps every backup's guesses).
            if log.count > maximumTracked {
                let kept = log.sorted { ($0.value.last ?? 0) > ($1.value.last ?? 0) }.prefix(maximumTracked / 2)
                log = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
            }
            return nil
        }
        if let wait { throw ServerError.tooManyRequests(retryAfterSeconds: max(1, Int((wait + 999) / 1000))) }
    }
}
