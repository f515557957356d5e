import Foundation
import Synchronization

/// Per-account token buckets. A refused action gets ``ServerError/tooManyRequests(retryAfterSeconds:)``.
public final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
        /// When the bucket will be full again: from then on, forgetting it changes nothing.
        var full: ContinuousClock.Instant
    }

    private struct Key: Hashable {
        let accountId: String
        let action: String
    }

    private let buckets = Mutex([Key: Bucket]())
    private let clock = ContinuousClock()
    /// Buckets kept before full (idle) ones are forgotten.
    private let maximumTracked: Int

    /// A limiter that tracks at most `maximumTracked` buckets: past that it forgets the full ones and, if that is not
    /// enough (many fresh addresses), arbitrary ones until half remain, so memory and the cost of a take stay bounded
    /// (each purge frees half the table, so purges are rare whatever the traffic).
    public init(maximumTracked: Int = 100_000) {
        self.maximumTracked = maximumTracked
    }

    /// Takes `tokens` tokens (all or none) for `action` of `accountId`, or throws 429 with the seconds until they are
    /// available. Asking for more than the bucket holds takes a full bucket (a request the capacity cannot cover would
    /// otherwise be refused forever).
    func take(_ action: String, accountId: String, policy: TokenBucketPolicy, tokens wanted: Int = 1) throws {
        let wanted = min(Double(wanted), policy.capacity)
        let now = clock.now
        let wait: Double? = buckets.withLock { buckets in
            let key = Key(accountId: accountId, action: action)
            var bucket = buckets[key] ?? Bucket(tokens: policy.capacity, updated: now, full: now)
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(policy.capacity, bucket.tokens + seconds * policy.refillPerSecond)
            bucket.updated = now
            guard bucket.tokens >= wanted else {
                buckets[key] = bucket
                return (wanted - bucket.tokens) / max(policy.refillPerSecond, 1e-9)
            }
            bucket.tokens -= wanted
            bucket.full = now.advanced(by: .seconds((policy.capacity - bucket.tokens) / max(policy.refillPerSecond, 1e-9)))
            buckets[key] = bucket
            if buckets.count > maximumTracked { Self.purge(&buckets, now: now, keeping: maximumTracked / 2) }
            return nil
        }
        if let wait { throw ServerError.tooManyRequests(retryAfterSeconds: max(1, Int(wait.rounded(.up)))) }
    }

    /// Takes `tokens` tokens for `action` from the client address `address` (routes without credentials have no account
    /// to count against); a caller whose address is unknown (an in-process test client) takes none.
    func take(_ action: String, address: String?, policy: TokenBucketPolicy, tokens: Int = 1) throws {
        guard let address else { return }
        try take(action + "-address", accountId: ClientAddress.limitKey(address), policy: policy, tokens: tokens)
    }

    /// Takes a token for `action` on `accountId` from the client address `address`: each pair has its own bucket. A
    /// caller whose address is unknown (an in-process test client) takes from `accountId`'s bucket for unknown callers.
    func take(_ action: String, accountId: String, from address: String?, policy: TokenBucketPolicy) throws {
        let caller = address.map(ClientAddress.limitKey) ?? "unknown"
        try take(action + "-from", accountId: accountId + " " + caller, policy: policy)
    }

    /// Takes a token for `action` on recipient `accountId` from the client address `address`: first from the bucket
    /// of this recipient and this address (`perAddress`: a caller that empties it turns away only itself), then from
    /// the recipient's bucket for every address (`overall`, a larger backstop). The routes a caller reaches with a
    /// recipient's access key instead of credentials (sealed sends, bundle fetches, sealed ephemeral events) take it
    /// once the key is checked.
    func take(
        _ action: String, recipient accountId: String, from address: String?,
        perAddress: TokenBucketPolicy, overall: TokenBucketPolicy
    ) throws {
        try take(action, accountId: accountId, from: address, policy: perAddress)
        try take(action, accountId: accountId, policy: overall)
    }

    /// How many buckets are tracked now.
    var trackedCount: Int { buckets.withLock { $0.count } }

    /// Forgets every bucket that is full again (remembering it changes nothing) and returns how many. The maintenance
    /// sweep calls this, so a quiet server does not keep every caller and address it has seen until the table reaches
    /// its bound.
    @discardableResult
    func forgetFullBuckets() -> Int {
        let now = clock.now
        return buckets.withLock { buckets in
            let before = buckets.count
            Self.forgetFull(&buckets, now: now)
            return before - buckets.count
        }
    }

    /// Forgets the buckets that are full again (each by its own policy) at `now`.
    private static func forgetFull(_ buckets: inout [Key: Bucket], now: ContinuousClock.Instant) {
        buckets = buckets.filter { $0.value.full > now }
    }

    /// Forgets the buckets that are full again (each by its own policy), then arbitrary ones beyond `keeping`.
    private static func purge(_ buckets: inout [Key: Bucket], now: ContinuousClock.Instant, keeping: Int) {
        forgetFull(&buckets, now: now)
        if buckets.count > keeping {
            buckets = Dictionary(uniqueKeysWithValues: buckets.prefix(keeping).map { ($0.key, $0.value) })
        }
    }
}
