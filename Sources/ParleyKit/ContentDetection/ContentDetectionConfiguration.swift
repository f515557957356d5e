/// How the client checks attachments against the server's hash banks.
public struct ContentDetectionConfiguration: Sendable, Equatable {
    /// How a hash is looked up.
    public enum LookupMode: String, Sendable, Equatable, CaseIterable {
        /// Send the first 5 hex digits, get the blocking banks' matching suffixes padded with decoys, compare locally:
        /// the server never learns which hash the client holds (the default).
        case prefix
        /// Send the whole hash (also reports `seen` duplicates).
        case fullHash = "full"
    }

    /// Whether attachments are checked at all.
    public var enabled = true
    /// Prefix (private) or full-hash lookups.
    public var mode = LookupMode.prefix
    /// How long one lookup request may take before it counts as failed (a check must not hold up a send for long).
    public var requestTimeout = Duration.seconds(5)
    /// Attempts per request on 5xx answers and network errors (4xx is never retried).
    public var maxAttempts = 3
    /// First retry delay; each next one doubles, up to ``maxDelay``, each scaled by a random 50–100 % (jitter).
    public var baseDelay = Duration.milliseconds(200)
    /// Longest retry delay.
    public var maxDelay = Duration.seconds(5)
    /// Consecutive failed requests that open the circuit breaker.
    public var failureThreshold = 5
    /// How long the breaker stays open before one probe request may try again.
    public var cooldown = Duration.seconds(30)
    /// Results kept in the LRU cache.
    public var cacheCapacity = 4096
    /// How long a cached result is trusted.
    public var cacheLifetime = Duration.seconds(300)
    /// Whether hashes of successfully sent attachments go to the `seen` bank (seed 003's post-send store). This is the
    /// one time the server sees a whole hash — of content this account sent — so it can be turned off.
    public var storeAfterSend = true
    /// The operator credential, needed only for ``ContentDetectionService/delete(_:bank:)``.
    public var operatorToken: String?

    /// The defaults: enabled, prefix lookups, 3 attempts, breaker at 5 failures for 30 s, 4,096 results for 5 minutes.
    public init() {}
}
