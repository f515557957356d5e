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
/// The send path reports devices it stored envelopes for and found no socket for here (``messagesWaiting(for:)``); a
/// device pushed from here is not considered again within the coalescing window (one that could not be claimed, for
/// a second), and is claimed in the store in one statement that also
/// checks it has a signed prekey (seed 004: only devices that can decrypt are woken), that no other process has its
/// socket, and that no other process pushed it within the window. Pushes run concurrently (bounded), retried with
/// backoff on 429/5xx; a target the provider calls unregistered is removed. Socket opens and closes are recorded in
/// the store in order, so every process sharing the database knows which devices are online.
///
/// A `Service`: ``run()`` must run (the application adds it) for pushes and presence to happen.
public final class PushNotifier: Service, Sendable {
    let store: any PushStore
    public let settings: PushSettings
    let metrics: ServerMetrics
    let logger: Logger
    /// Names this process's rows in the store's socket table.
    let instanceId: String
    private let webPush: WebPushSender
    private let apns: APNsSender?
    private let fcm: FCMSender?
    private let waiting: (stream: AsyncStream<DeviceAddress>, continuation: AsyncStream<DeviceAddress>.Continuation)
    private let presence: (stream: AsyncStream<(DeviceAddress, Bool)>, continuation: AsyncStream<(DeviceAddress, Bool)>.Continuation)
    /// Until when (milliseconds) each device is not considered again: the window after a push from here, a second
    /// after a claim that found nothing to push (no target or keys, a socket elsewhere, pushed by another process).
    private let quietUntil = Mutex<[DeviceAddress: UInt64]>([:])
    /// How long a device that could not be claimed is left alone (bounds the store's claims per offline device).
    static let unclaimedQuietMilliseconds: UInt64 = 1000
    /// Whether ``run()`` started (the streams have one reader: a second run returns at once).
    private let started = Mutex(false)
    /// Devices remembered for coalescing; beyond this, the expired entries are dropped (the store still coalesces).
    static let maximumRemembered = 100_000

    /// A notifier pushing through the providers of `settings`.
    public init(store: any PushStore, settings: PushSettings, metrics: ServerMetrics, logger: Logger,
                instanceId: String = UUID().uuidString.lowercased()) {
        self.store = store
        self.settings = settings
        self.metrics = metrics
        self.logger = logger
        self.instanceId = instanceId
        webPush = WebPushSender(vapid: settings.vapid, timeToLiveSeconds: settings.timeToLiveSeconds)
        apns = settings.apns.map { APNsSender(configuration: $0, timeToLiveSeconds: settings.timeToLiveSeconds) }
        fcm = settings.fcm.map { FCMSender(configuration: $0, timeToLiveSeconds: settings.timeToLiveSeconds) }
        waiting = AsyncStream.makeStream()
        presence = AsyncStream.makeStream()
    }

    /// Envelopes were stored for `addresses` and no socket of this process took them.
    func messagesWaiting(for addresses: [DeviceAddress]) {
        guard !addresses.isEmpty else { return }
        let now = ServerClock.milliseconds()
        let window = Self.milliseconds(settings.coalescingWindow)
        var coalesced = 0
        let fresh = quietUntil.withLock { quietUntil -> [DeviceAddress] in
            var fresh: [DeviceAddress] = []
            for address in Set(addresses) {
                if let until = quietUntil[address], now < until {
                    coalesced += 1
                    continue
                }
                // Until the claim answers; shortened when it finds nothing to push.
                quietUntil[address] = now &+ window
                fresh.append(address)
            }
            if quietUntil.count > Self.maximumRemembered {
                quietUntil = quietUntil.filter { now < $0.value }
                if quietUntil.count > Self.maximumRemembered { quietUntil.removeAll() }
            }
            return fresh
        }
        if coalesced > 0 { metrics.pushesCoalesced.increment(by: Int64(coalesced)) }
        for address in fresh { waiting.continuation.yield(address) }
    }

    /// A socket of `address` opened (`true`) or closed here.
    func socketChanged(_ address: DeviceAddress, open: Bool) {
        if open { quietUntil.withLock { _ = $0.removeValue(forKey: address) } }
        presence.continuation.yield((address, open))
    }

    /// The device registered or removed its target: its next message is considered at once.
    func targetChanged(_ address: DeviceAddress) {
        quietUntil.withLock { _ = $0.removeValue(forKey: address) }
    }

    /// Whether `provider` (`webpush`, `apns`, `fcm`) can send from this server.
    func supports(_ provider: String) -> Bool { settings.providers.contains(provider) }

    /// Pushes, records presence and marks this process's sockets as alive until the server shuts down; then forgets
    /// this process's sockets.
    public func run() async throws {
        guard started.withLock({ started in defer { started = true }; return !started }) else { return }
        var tls = TLSConfiguration.makeClientConfiguration()
        if let roots = settings.trustRootsFile { tls.trustRoots = .file(roots) }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        configuration.httpVersion = .automatic
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(Int64(settings.requestTimeout.components.seconds)))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.recordPresence() }
                group.addTask { await self.markSocketsAlive() }
                group.addTask { await self.pushWaitingDevices(client: client) }
            }
        }
        try? await store.forgetSockets(instanceId: instanceId)
        try? await client.shutdown()
    }

    /// Runs `body` until it returns or the service group shuts down gracefully (then it is cancelled).
    private func cancelWhenGracefulShutdown(_ body: @escaping @Sendable () async -> Void) async {
        let task = Task { await body() }
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        } onGracefulShutdown: {
            task.cancel()
        }
    }

    /// Socket opens and closes, written in the order they happened.
    private func recordPresence() async {
        for await (address, open) in presence.stream {
            do {
                if open {
                    try await store.recordSocketOpened(accountId: address.accountId, deviceId: address.deviceId,
                                                       instanceId: instanceId, now: ServerClock.milliseconds())
                } else {
                    try await store.recordSocketClosed(accountId: address.accountId, deviceId: address.deviceId, instanceId: instanceId)
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
                try await store.refreshSockets(instanceId: instanceId, now: now, staleBefore: now &- Self.milliseconds(settings.presenceHeartbeat * 3))
            } catch {
                logger.warning("marking sockets alive failed", metadata: ["error": "\(error)"])
            }
        }
    }

    private func pushWaitingDevices(client: HTTPClient) async {
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for await address in waiting.stream {
                if running >= settings.concurrentPushes {
                    await group.next()
                    running -= 1
                }
                running += 1
                group.addTask { await self.push(address, client: client) }
            }
        }
    }

    /// Claims `address` in the store and pushes its target, retrying as the provider allows.
    func push(_ address: DeviceAddress, client: HTTPClient) async {
        let now = ServerClock.milliseconds()
        let target: PushTarget
        do {
            guard let claimed = try await store.claimPush(
                accountId: address.accountId, deviceId: address.deviceId, now: now,
                pushedBefore: now &- Self.milliseconds(settings.coalescingWindow),
                liveAfter: now &- Self.milliseconds(settings.presenceHeartbeat * 3))
            else {
                let until = now &+ min(Self.unclaimedQuietMilliseconds, Self.milliseconds(settings.coalescingWindow))
                quietUntil.withLock { quietUntil in quietUntil[address] = min(quietUntil[address] ?? until, until) }
                return
            }
            target = claimed
        } catch {
            logger.warning("claiming a push failed", metadata: ["device": "\(address)", "error": "\(error)"])
            return
        }
        var backoff = settings.initialBackoff
        for attempt in 1...max(1, settings.maximumAttempts) {
            let outcome = await send(to: target, client: client)
            metrics.countPush(provider: target.provider, outcome: outcome.label)
            switch outcome {
            case .delivered:
                return
            case .unregistered(let reason):
                _ = try? await store.removePushTarget(accountId: address.accountId, deviceId: address.deviceId, matching: target)
                logger.info("push target removed", metadata: ["device": "\(address)", "provider": "\(target.provider)", "reason": "\(reason)"])
                return
            case .rejected(let reason):
                logger.warning("push refused", metadata: ["device": "\(address)", "provider": "\(target.provider)", "reason": "\(reason)"])
                return
            case .retry(let after, let reason):
                guard attempt < settings.maximumAttempts else {
                    metrics.countPush(provider: target.provider, outcome: "failed")
                    logger.warning("push failed after \(attempt) attempts",
                                   metadata: ["device": "\(address)", "provider": "\(target.provider)", "reason": "\(reason)"])
                    return
                }
                let wait = min(max(after ?? backoff, .zero), settings.maximumBackoff)
                backoff = min(backoff * 2, settings.maximumBackoff)
                do { try await Task.sleep(for: wait) } catch { return }
            }
        }
    }

    private func send(to target: PushTarget, client: HTTPClient) async -> PushOutcome {
        let timeout = settings.requestTimeout
        switch target {
        case .webPush(let endpoint, let p256dh, let auth):
            return await webPush.send(Self.payload, endpoint: endpoint, p256dh: p256dh, auth: auth, client: client, timeout: timeout, now: Date())
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
