import AsyncHTTPClient
import Foundation
import Logging
import NIOSSL
import ParleyAPI
import ServiceLifecycle
import Synchronization

/// Wakes devices that have messages waiting and no open socket on any server process, through the push target each
/// registered (Web Push, APNs or FCM), with nothing about the messages in the push: the device connects and drains.
///
/// The send path reports devices it stored envelopes for and found no socket for here (``messagesWaiting(for:)``).
/// Each is claimed in the store (``PushStore/claimPush(accountId:deviceId:instanceId:now:pushedBefore:liveAfter:)``):
/// it must have a target and a signed prekey (seed 004: only devices that can decrypt are woken), no socket on
/// another process, and no push within the coalescing window. Messages for a device pushed or claimed moments ago
/// are not claimed again at once: the device is looked at again when its quiet time ends, so a burst makes one push
/// and no wake-up is lost. A socket that closes with envelopes still waiting (a connection that died) counts as
/// messages waiting. Pushes run concurrently (bounded); a 429, 5xx or failed connection is retried later (after the
/// provider's `Retry-After`, else a doubling backoff) without holding a slot; a target the provider calls gone is
/// removed. Socket opens and closes are recorded in the store in order, so every process sharing the database knows
/// which devices are online.
///
/// A `Service`: while ``run()`` runs (the application adds it) devices are pushed; without it nothing is queued.
public final class PushNotifier: Service, Sendable {
    /// One push to make: a device to claim, or (a retry) a target already claimed.
    private struct Job: Sendable {
        let address: DeviceAddress
        let claimed: PushTarget?
        let attempt: Int
    }

    private struct State {
        /// Until when (milliseconds) each device is left alone.
        var quietUntil: [DeviceAddress: UInt64] = [:]
        /// Devices with messages that arrived while they were quiet: looked at again when it ends.
        var deferred: Set<DeviceAddress> = []
        /// The running service's inputs (`nil` while it is not running).
        var jobs: AsyncStream<Job>.Continuation?
        var delayed: AsyncStream<(Job, Duration)>.Continuation?
        var presence: AsyncStream<(DeviceAddress, Bool)>.Continuation?
        var running = false

        /// Ends `address`'s quiet time (it connected, or changed its target): its next message is looked at at once.
        mutating func wake(_ address: DeviceAddress) {
            quietUntil[address] = nil
            deferred.remove(address)
        }
    }

    let store: any PushStore & MailboxStore
    /// The providers and the pacing of pushes.
    public let settings: PushSettings
    let metrics: ServerMetrics
    let logger: Logger
    /// Names this process's rows in the store's socket table.
    let instanceId: String
    private let webPush: WebPushSender
    private let apns: APNsSender?
    private let fcm: FCMSender?
    private let state = Mutex(State())
    /// Devices remembered; beyond this, those whose quiet time is over are forgotten (the store still coalesces).
    static let maximumRemembered = 100_000
    /// How long a device that is online elsewhere is left alone before messages for it are looked at again.
    static let onlineQuietMilliseconds: UInt64 = 1000

    /// A notifier pushing through the providers of `settings`.
    public init(
        store: any PushStore & MailboxStore, settings: PushSettings, metrics: ServerMetrics, logger: Logger,
        instanceId: String = UUID().uuidString.lowercased()
    ) {
        self.store = store
        self.settings = settings
        self.metrics = metrics
        self.logger = logger
        self.instanceId = instanceId
        webPush = WebPushSender(vapid: settings.vapid, timeToLiveSeconds: settings.timeToLiveSeconds)
        apns = settings.apns.map { APNsSender(configuration: $0, timeToLiveSeconds: settings.timeToLiveSeconds) }
        fcm = settings.fcm.map { FCMSender(configuration: $0, timeToLiveSeconds: settings.timeToLiveSeconds) }
    }

    /// Envelopes were stored for `addresses` and no socket of this process took them.
    func messagesWaiting(for addresses: [DeviceAddress]) {
        guard !addresses.isEmpty else { return }
        let now = ServerClock.milliseconds()
        let window = Self.milliseconds(settings.coalescingWindow)
        let (fresh, coalesced, jobs) = state.withLock { state -> ([DeviceAddress], Int, AsyncStream<Job>.Continuation?) in
            guard state.jobs != nil else { return ([], 0, nil) }
            var fresh: [DeviceAddress] = []
            var coalesced = 0
            for address in Set(addresses) {
                if let until = state.quietUntil[address], now < until {
                    coalesced += 1
                    state.deferred.insert(address)
                    continue
                }
                // Until the claim answers, which sets the real quiet time.
                state.quietUntil[address] = now &+ window
                fresh.append(address)
            }
            if state.quietUntil.count > Self.maximumRemembered {
                state.quietUntil = state.quietUntil.filter { now < $0.value || state.deferred.contains($0.key) }
                if state.quietUntil.count > Self.maximumRemembered {
                    state.quietUntil.removeAll()
                    state.deferred.removeAll()
                }
            }
            return (fresh, coalesced, state.jobs)
        }
        if coalesced > 0 { metrics.pushesCoalesced.increment(by: Int64(coalesced)) }
        for address in fresh { jobs?.yield(Job(address: address, claimed: nil, attempt: 1)) }
    }

    /// A socket of `address` opened (`true`) or closed here.
    func socketChanged(_ address: DeviceAddress, open: Bool) {
        let presence = state.withLock { state in
            if open { state.wake(address) }
            return state.presence
        }
        presence?.yield((address, open))
    }

    /// The device registered or removed its target: its next message is looked at at once.
    func targetChanged(_ address: DeviceAddress) {
        state.withLock { $0.wake(address) }
    }

    /// Whether `provider` (`webpush`, `apns`, `fcm`) can send from this server.
    func supports(_ provider: String) -> Bool { settings.providers.contains(provider) }

    /// Pushes, records presence and marks this process's sockets as alive until the server shuts down gracefully (or
    /// the task is cancelled); then forgets this process's sockets. A second concurrent run waits for the shutdown.
    public func run() async throws {
        guard
            state.withLock({ state in
                defer { state.running = true }
                return !state.running
            })
        else {
            try? await gracefulShutdown()
            return
        }
        let (jobs, jobInput) = AsyncStream.makeStream(of: Job.self)
        let (delayed, delayInput) = AsyncStream.makeStream(of: (Job, Duration).self)
        let (presence, presenceInput) = AsyncStream.makeStream(of: (DeviceAddress, Bool).self)
        state.withLock { state in
            state.jobs = jobInput
            state.delayed = delayInput
            state.presence = presenceInput
        }
        var tls = TLSConfiguration.makeClientConfiguration()
        // Added to the system's roots, never instead of them: public Web Push services keep working.
        if let roots = settings.trustRootsFile { tls.additionalTrustRoots = [.file(roots)] }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        configuration.httpVersion = .automatic
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(Int64(settings.requestTimeout.components.seconds)))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.recordPresence(presence) }
                group.addTask { await self.markSocketsAlive() }
                group.addTask { await self.lookAgainAtQuietDevices() }
                group.addTask { await self.push(jobs, client: client) }
                group.addTask { await self.delay(delayed) }
            }
        }
        state.withLock { state in
            state.jobs = nil
            state.delayed = nil
            state.presence = nil
            state.quietUntil.removeAll()
            state.deferred.removeAll()
            state.running = false
        }
        jobInput.finish()
        delayInput.finish()
        presenceInput.finish()
        try? await store.forgetSockets(instanceId: instanceId)
        try? await client.shutdown()
    }

    /// Socket opens and closes, written in the order they happened; a close with envelopes left counts as messages
    /// waiting (the connection died before they were acknowledged).
    private func recordPresence(_ events: AsyncStream<(DeviceAddress, Bool)>) async {
        for await (address, open) in events {
            do {
                if open {
                    try await store.recordSocketOpened(
                        accountId: address.accountId, deviceId: address.deviceId,
                        instanceId: instanceId, now: ServerClock.milliseconds())
                } else {
                    try await store.recordSocketClosed(accountId: address.accountId, deviceId: address.deviceId, instanceId: instanceId)
                    let left = try await store.pendingEnvelopes(
                        accountId: address.accountId, deviceId: address.deviceId, notBefore: 0, limit: 1)
                    if !left.isEmpty { messagesWaiting(for: [address]) }
                }
            } catch {
                logger.warning("recording a socket failed", metadata: ["device": "\(address)", "error": "\(error)"])
            }
        }
    }

    private func markSocketsAlive() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: settings.presenceHeartbeat)
            guard !Task.isCancelled else { return }
            let now = ServerClock.milliseconds()
            do {
                try await store.refreshSockets(
                    instanceId: instanceId, now: now, staleBefore: now &- Self.milliseconds(settings.presenceHeartbeat * 3))
            } catch {
                logger.warning("marking sockets alive failed", metadata: ["device": "all", "error": "\(error)"])
            }
        }
    }

    /// Every 250 ms: devices that got messages while quiet and whose quiet time is over are claimed again.
    private func lookAgainAtQuietDevices() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(250))
            let now = ServerClock.milliseconds()
            let window = Self.milliseconds(settings.coalescingWindow)
            let (due, jobs) = state.withLock { state -> ([DeviceAddress], AsyncStream<Job>.Continuation?) in
                let due = state.deferred.filter { (state.quietUntil[$0] ?? 0) <= now }
                for address in due {
                    state.deferred.remove(address)
                    state.quietUntil[address] = now &+ window
                }
                return (Array(due), state.jobs)
            }
            for address in due { jobs?.yield(Job(address: address, claimed: nil, attempt: 1)) }
        }
    }

    /// Runs jobs, at most ``PushSettings/concurrentPushes`` at once.
    private func push(_ jobs: AsyncStream<Job>, client: HTTPClient) async {
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for await job in jobs {
                if running >= settings.concurrentPushes {
                    await group.next()
                    running -= 1
                }
                running += 1
                group.addTask { await self.run(job, client: client) }
            }
        }
    }

    /// Hands each retry back to the jobs after its wait, holding no push slot meanwhile.
    private func delay(_ delayed: AsyncStream<(Job, Duration)>) async {
        await withDiscardingTaskGroup { group in
            for await (job, wait) in delayed {
                group.addTask {
                    do { try await Task.sleep(for: wait) } catch { return }
                    let jobs = self.state.withLock { $0.jobs }
                    jobs?.yield(job)
                }
            }
        }
    }

    /// Claims the job's device (unless a retry) and makes one attempt.
    private func run(_ job: Job, client: HTTPClient) async {
        let address = job.address
        let target: PushTarget
        if let claimed = job.claimed {
            target = claimed
        } else {
            let now = ServerClock.milliseconds()
            let window = Self.milliseconds(settings.coalescingWindow)
            let claim: PushClaim
            do {
                claim = try await store.claimPush(
                    accountId: address.accountId, deviceId: address.deviceId, instanceId: instanceId, now: now,
                    pushedBefore: now &- window, liveAfter: now &- Self.milliseconds(settings.presenceHeartbeat * 3))
            } catch {
                logger.warning("claiming a push failed", metadata: ["device": "\(address)", "error": "\(error)"])
                quiet(address, until: now &+ Self.onlineQuietMilliseconds)
                return
            }
            switch claim {
            case .claimed(let claimed):
                target = claimed
            case .notPushable:
                return  // quiet for the window: a new target or a connection ends it
            case .online:
                quiet(address, until: now &+ min(Self.onlineQuietMilliseconds, window))
                return
            case .recentlyPushed(let pushedAt):
                quiet(address, until: pushedAt &+ window)
                return
            }
        }
        let outcome = await send(to: target, client: client)
        switch outcome {
        case .delivered:
            metrics.countPush(provider: target.provider, outcome: outcome.label)
        case .unregistered(let reason):
            metrics.countPush(provider: target.provider, outcome: outcome.label)
            _ = try? await store.removePushTarget(accountId: address.accountId, deviceId: address.deviceId, matching: target)
            logger.info("push target removed", metadata: ["device": "\(address)", "provider": "\(target.provider)", "reason": "\(reason)"])
        case .rejected(let reason):
            metrics.countPush(provider: target.provider, outcome: outcome.label)
            logger.warning(
                "push refused", metadata: ["device": "\(address)", "provider": "\(target.provider)", "reason": "\(reason.prefix(200))"])
        case .retry(let after, let reason):
            guard job.attempt < settings.maximumAttempts else {
                metrics.countPush(provider: target.provider, outcome: "failed")
                logger.warning(
                    "push failed after \(job.attempt) attempts",
                    metadata: ["device": "\(address)", "provider": "\(target.provider)", "reason": "\(reason.prefix(200))"])
                return
            }
            metrics.countPush(provider: target.provider, outcome: outcome.label)
            // The provider's Retry-After (capped when read), else the backoff for this attempt.
            let backoff = min(settings.initialBackoff * (1 << min(job.attempt - 1, 16)), settings.maximumBackoff)
            let delayed = state.withLock { $0.delayed }
            delayed?.yield((Job(address: address, claimed: target, attempt: job.attempt + 1), max(after ?? backoff, .zero)))
        }
    }

    /// Leaves `address` alone until `until` (replacing the provisional quiet time set when its claim was queued).
    private func quiet(_ address: DeviceAddress, until: UInt64) {
        state.withLock { state in state.quietUntil[address] = until }
    }

    private func send(to target: PushTarget, client: HTTPClient) async -> PushOutcome {
        let timeout = settings.requestTimeout
        switch target {
        case .webPush(let endpoint, let p256dh, let auth):
            return await webPush.send(
                Self.payload, endpoint: endpoint, p256dh: p256dh, auth: auth, client: client, timeout: timeout, now: Date())
        case .apns(let token, let topic, let sandbox):
            guard let apns else { return .rejected(reason: "this server has no APNs credentials") }
            return await apns.send(deviceToken: token, topic: topic, sandbox: sandbox, client: client, timeout: timeout, now: Date())
        case .fcm(let token):
            guard let fcm else { return .rejected(reason: "this server has no FCM credentials") }
            return await fcm.send(token: token, client: client, timeout: timeout)
        }
    }

    /// What a Web Push carries, encrypted: that there is something to fetch, nothing about what or from whom.
    static let payload = Array(#"{"parley":"wake"}"#.utf8)

    static func milliseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1000 + UInt64(max(0, attoseconds) / 1_000_000_000_000_000)
    }
}
