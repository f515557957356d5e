import Logging
import ServiceLifecycle

/// Reclaims what has expired, once at start and then every `interval`: mailbox envelopes past their lifetime,
/// link codes, attachments and rate-limit buckets full again. Expired items are never honoured in between; this only
/// frees their space.
public struct MaintenanceService: Service {
    let dependencies: ServerDependencies
    let interval: Duration
    let logger: Logger
    /// Backend-specific upkeep run before the sweep (PostgreSQL creates next months' mailbox partitions).
    let storeUpkeep: @Sendable (_ now: UInt64) async throws -> Void

    /// A sweeper over `dependencies`.
    public init(
        dependencies: ServerDependencies, interval: Duration = .seconds(3600), logger: Logger,
        storeUpkeep: @escaping @Sendable (_ now: UInt64) async throws -> Void = { _ in }
    ) {
        self.dependencies = dependencies
        self.interval = interval
        self.logger = logger
        self.storeUpkeep = storeUpkeep
    }

    /// Sweeps until graceful shutdown.
    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            await sweep(now: ServerClock.milliseconds())
            try? await cancelWhenGracefulShutdown { [interval] in try await Task.sleep(for: interval) }
        }
    }

    /// One sweep at `now`.
    public func sweep(now: UInt64) async {
        let limits = dependencies.limits
        // In memory: swept even when the store cannot be reached.
        let buckets = dependencies.rateLimiter.forgetFullBuckets()
        do {
            try await storeUpkeep(now)
            let envelopes = try await dependencies.store.deleteEnvelopes(olderThan: limits.oldestKept(now: now))
            // A send's key is kept as long as its message could wait in a mailbox: a client retrying that late still
            // finds the first answer.
            let keys = try await dependencies.store.deleteIdempotencyRecords(olderThan: limits.oldestKept(now: now))
            let codes = try await dependencies.store.deleteLinkCodes(expiredBefore: now)
            let provisioning = try await dependencies.store.deleteProvisioningMessages(expiredBefore: now)
            let hashes = try await dependencies.store.deleteHashes(expiredBefore: now)
            let blobs = dependencies.attachments.deleteBlobs(olderThan: now &- limits.attachmentLifetimeMilliseconds)
            logger.info(
                "maintenance",
                metadata: [
                    "expired_envelopes": "\(envelopes)", "expired_link_codes": "\(codes)",
                    "expired_provisioning_messages": "\(provisioning)",
                    "expired_seen_hashes": "\(hashes)", "expired_idempotency_keys": "\(keys)",
                    "expired_attachments": "\(blobs)", "forgotten_rate_limit_buckets": "\(buckets)",
                ])
        } catch {
            logger.error("maintenance failed", metadata: ["error": "\(error)"])
        }
    }
}
