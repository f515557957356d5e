import Foundation

/// Everything the server's routes share, built once by the composition root (`parley-server` or a test) and
/// passed in: no globals.
public struct ServerDependencies: Sendable {
    /// Accounts, keys and mailboxes.
    public let store: any ServerStore
    /// Attachment blobs.
    public let attachments: AttachmentStore
    /// Device credential hashing.
    public let hasher: PasswordHasher
    /// Hard limits and rate limits.
    public let limits: ServerLimits
    /// Prometheus metrics.
    public let metrics: ServerMetrics
    /// Connected devices of this process.
    public let hub: DeliveryHub
    /// Per-account token buckets.
    public let rateLimiter: RateLimiter

    /// Dependencies over `store`, with attachments under `attachments`.
    public init(store: any ServerStore, attachments: AttachmentStore, hasher: PasswordHasher = PasswordHasher(),
                limits: ServerLimits = ServerLimits(), metrics: ServerMetrics = ServerMetrics()) {
        self.store = store
        self.attachments = attachments
        self.hasher = hasher
        self.limits = limits
        self.metrics = metrics
        self.rateLimiter = RateLimiter()
        let gauge = metrics.socketsOpen
        self.hub = DeliveryHub(onCountChange: { gauge.set(Double($0)) })
    }
}
