import Foundation

/// How the PIN backup routes guard the backups: the server's OPRF key, how many guesses a backup survives and how
/// fast they may come.
public struct BackupSettings: Sendable {
    /// The 32-byte server key every account's OPRF key is derived from; kept in `backup-oprf.key` beside (never in)
    /// the database, so a copy of the database alone cannot test a single PIN guess.
    public var oprfKey: [UInt8]
    /// Guesses (restore evaluations) without a successful restore after which the backup is deleted (default 10).
    public var maximumFailures = 10
    /// Guesses per account within ``attemptWindowMilliseconds`` (default 5), and as many restores.
    public var attemptsPerWindow = 5
    /// The sliding window of ``attemptsPerWindow`` (default 5 minutes).
    public var attemptWindowMilliseconds: UInt64 = 5 * 60 * 1000
    /// Largest backup blob, decoded (64 KiB).
    public var maximumBlobBytes = 64 * 1024
    /// Milliseconds since 1970: when backups are made and guesses counted (tests move it forward).
    public var clock: @Sendable () -> UInt64 = { ServerClock.milliseconds() }

    /// Settings keyed by `oprfKey` (32 bytes; random when not given — backups then cannot be restored after the
    /// server restarts, which suits tests only).
    public init(oprfKey: [UInt8]? = nil) {
        var generator = SystemRandomNumberGenerator()
        self.oprfKey = oprfKey ?? (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
