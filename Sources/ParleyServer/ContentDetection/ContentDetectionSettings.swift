import Foundation

/// How the hash banks behave, from the operator's configuration.
public struct ContentDetectionSettings: Sendable {
    /// The operator credential for deleting hashes and importing files (`Authorization: Bearer …`); `nil` disables
    /// the operator API (403). Never compiled in: it comes from a flag or the environment.
    public var operatorToken: String?
    /// Strict mode: a hit in the `seen` bank blocks too (by default it only counts as a duplicate).
    public var strictSeen = false
    /// How long a stored `seen` hash is kept (default 90 days).
    public var seenLifetimeMilliseconds: UInt64 = 90 * 24 * 60 * 60 * 1000
    /// Every prefix answer holds a multiple of this many suffixes (real ones and decoys).
    public var prefixAnswerSize = 256
    /// The most real hashes a prefix answer lists (a bank far beyond 2³⁰ hashes would reach it).
    public var prefixMatchLimit = 16_384
    /// Keys the decoys, so that one prefix always gets the same ones (asking twice reveals nothing).
    public var decoyKey: [UInt8]
    /// Where uploaded import files wait until their job completes.
    public var importDirectory: URL
    /// Largest import file (default 4 GiB).
    public var importMaxBytes: Int64 = 4 << 30
    /// Hashes committed per import transaction.
    public var importChunkSize = 10_000

    /// Settings with import files under `importDirectory` and decoys keyed by `decoyKey` (random when not given:
    /// decoys then change when the server restarts).
    public init(importDirectory: URL, decoyKey: [UInt8]? = nil, operatorToken: String? = nil) {
        var generator = SystemRandomNumberGenerator()
        self.decoyKey = decoyKey ?? (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        self.importDirectory = importDirectory
        self.operatorToken = operatorToken
    }

    /// The banks whose hits block: `blocked`, and `seen` in strict mode.
    var blockingBanks: [String] { strictSeen ? [HashBank.blocked.rawValue, HashBank.seen.rawValue] : [HashBank.blocked.rawValue] }
}

/// The server's hash banks.
public enum HashBank: String, Sendable, CaseIterable {
    /// Known-bad content, managed by operators; hits block.
    case blocked
    /// Hashes stored by clients after successful sends, kept for a while; hits count as duplicates (block in strict mode).
    case seen
}
