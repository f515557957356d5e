/// Counters of a ``ContentDetectionService``, for logs, `parley dcd verify` and tests.
public struct ContentDetectionMetrics: Sendable, Equatable, Codable {
    /// Logical lookups asked for (contains and each hash of a batch).
    public var lookups = 0
    /// Lookups answered from the cache, without a request.
    public var cacheHits = 0
    /// HTTP requests sent (retries included).
    public var requests = 0
    /// Retries after a 5xx answer or a network error.
    public var retries = 0
    /// Requests that failed after their retries.
    public var failures = 0
    /// Lookups answered "not found" because of a failure, an open breaker or a disabled service.
    public var failOpen = 0
    /// Times the circuit breaker opened.
    public var breakerOpenings = 0
    /// Lookups that found the hash in a blocking bank.
    public var blocked = 0
    /// Hashes stored after sends.
    public var stored = 0

    /// All zero.
    public init() {}
}
