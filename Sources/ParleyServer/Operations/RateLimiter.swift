import Foundation
import Synchronization

/// Per-account token buckets. A refused action gets ``ServerError/tooManyRequests(retryAfterSeconds:)``.
public final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private struct Key: Hashable {
        let accountId: String
        let action: String
    }

    private let buckets = Mutex([Key: Bucket]())
    private let clock = ContinuousClock()
    /// Buckets kept before full (idle) ones are forgotten.
    private let maximumTracked: Int

    /// A limiter; it forgets full buckets once it tracks more than `maximumTracked`.
    public init(maximumTracked: Int = 100_000) {
        self.maximumTracked = maximumTracked
    }

    /// Takes a token for `action` of `accountId`, or throws 429 with the seconds until one is available.
    func take(_ action: String, accountId: String, policy: TokenBucketPolicy) throws {
        let now = clock.now
        let wait: Double? = buckets.withLock { buckets in
            let key = Key(accountId: accountId, action: action)
            var bucket = buckets[key] ?? Bucket(tokens: policy.capacity, updated: now)
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(policy.capacity, bucket.tokens + seconds * policy.refillPerSecond)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                buckets[key] = bucket
                return (1 - bucket.tokens) / max(policy.refillPerSecond, 1e-9)
            }
            bucket.tokens -= 1
            buckets[key] = bucket
            if buckets.count > maximumTracked { Self.forgetIdle(&buckets, now: now, policy: policy) }
            return nil
        }
        if let wait { throw ServerError.tooManyRequests(retryAfterSeconds: max(1, Int(wait.rounded(.up)))) }
    }

    /// Takes a token for `action` from the client address `address` (routes without credentials have no account to
    /// count against); a caller whose address is unknown (an in-process test client) takes none.
    func take(_ action: String, address: String?, policy: TokenBucketPolicy) throws {
        guard let address else { return }
        try take(action + "-address", accountId: address, policy: policy)
    }

    private static func forgetIdle(_ buckets: inout [Key: Bucket], now: ContinuousClock.Instant, policy: TokenBucketPolicy) {
        let refillTime = Duration.seconds(policy.capacity / max(policy.refillPerSecond, 1e-9))
        buckets = buckets.filter { now - $0.value.updated < refillTime }
    }
}
