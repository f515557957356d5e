import ParleyAPI

/// Push targets per device, and which devices have a socket open on some server process (so a process that stores a
/// message can tell whether any process will deliver it live).
///
/// Implementations are safe to call concurrently; each method is one transaction.
public protocol PushStore: Sendable {
    /// Registers `target` for the device, replacing its previous one and forgetting when it was last pushed.
    func setPushTarget(_ target: PushTarget, accountId: String, deviceId: UInt32, now: UInt64) async throws
    /// The device's target, or `nil`.
    func pushTarget(accountId: String, deviceId: UInt32) async throws -> PushTarget?
    /// Whether the device has a signed prekey, that is, can decrypt messages sent to it now.
    func hasSignedPreKey(accountId: String, deviceId: UInt32) async throws -> Bool
    /// Removes the device's target (only when it is still `matching`, if given: a provider's "unregistered" must not
    /// remove a target registered since); `false` when there was none to remove.
    func removePushTarget(accountId: String, deviceId: UInt32, matching: PushTarget?) async throws -> Bool
    /// Claims the right to push the device now, in one statement: it has a target, was not pushed after
    /// `pushedBefore` (coalescing across processes), has a signed prekey (only devices that can decrypt are woken) and
    /// no socket seen after `liveAfter` on any process. Returns the target when claimed (its push time is now `now`).
    func claimPush(accountId: String, deviceId: UInt32, now: UInt64, pushedBefore: UInt64, liveAfter: UInt64) async throws -> PushTarget?
    /// Records that the device has a socket on process `instanceId`, and clears its last push time (the next message
    /// after it goes offline again wakes it).
    func recordSocketOpened(accountId: String, deviceId: UInt32, instanceId: String, now: UInt64) async throws
    /// Records that the device's socket on process `instanceId` closed.
    func recordSocketClosed(accountId: String, deviceId: UInt32, instanceId: String) async throws
    /// Marks every socket of `instanceId` as seen at `now` and forgets every socket not seen since `staleBefore` (of
    /// processes that died without saying so).
    func refreshSockets(instanceId: String, now: UInt64, staleBefore: UInt64) async throws
    /// Forgets every socket of `instanceId` (its graceful shutdown).
    func forgetSockets(instanceId: String) async throws
}

/// A push target as its columns: `provider` (`webpush`, `apns`, `fcm`), `address` (endpoint or token) and the
/// provider's extra fields.
struct PushTargetColumns {
    let provider: String
    let address: String
    let p256dh: String?
    let auth: String?
    let topic: String?
    let sandbox: Bool

    init(_ target: PushTarget) {
        provider = target.provider
        switch target {
        case .webPush(let endpoint, let p256dh, let auth):
            (address, self.p256dh, self.auth, topic, sandbox) = (endpoint, p256dh, auth, nil, false)
        case .apns(let token, let topic, let sandbox):
            (address, p256dh, auth, self.topic, self.sandbox) = (token, nil, nil, topic, sandbox)
        case .fcm(let token):
            (address, p256dh, auth, topic, sandbox) = (token, nil, nil, nil, false)
        }
    }

    init(provider: String, address: String, p256dh: String?, auth: String?, topic: String?, sandbox: Bool) {
        (self.provider, self.address, self.p256dh, self.auth, self.topic, self.sandbox) = (provider, address, p256dh, auth, topic, sandbox)
    }

    /// The target these columns hold, or `nil` for a row no version of the server writes.
    var target: PushTarget? {
        switch provider {
        case "webpush":
            guard let p256dh, let auth else { return nil }
            return .webPush(endpoint: address, p256dh: p256dh, auth: auth)
        case "apns":
            guard let topic else { return nil }
            return .apns(token: address, topic: topic, sandbox: sandbox)
        case "fcm":
            return .fcm(token: address)
        default:
            return nil
        }
    }
}
