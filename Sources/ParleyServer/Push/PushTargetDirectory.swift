import Crypto
import Foundation
import ParleyAPI

/// The rules for push targets, behind every front door: what a well-formed target is, which providers this server
/// can send through, and that a change is seen at once by the notifier.
struct PushTargetDirectory: Sendable {
    let store: any PushStore
    let notifier: PushNotifier
    let limits: ServerLimits
    let rateLimiter: RateLimiter

    /// The longest Web Push endpoint accepted (UnifiedPush distributors make long ones).
    static let maximumEndpointBytes = 2048
    /// The longest APNs or FCM token accepted (FCM's are about 160 characters, APNs's 64 hex digits).
    static let maximumTokenBytes = 4096

    /// Registers `target` for `device`, replacing its previous one.
    ///
    /// - Throws: ``ServerError/badRequest(_:)`` naming what is malformed or which provider this server lacks;
    ///   ``ServerError/tooManyRequests(retryAfterSeconds:)``.
    func register(_ target: PushTarget, for device: AuthenticatedDevice) async throws {
        try rateLimiter.take("push-target", accountId: device.account.id, policy: limits.rateLimits.pushTarget)
        try Self.validate(target, allowingPrivateHosts: notifier.settings.allowsPrivateWebPushHosts)
        guard notifier.supports(target.provider) else {
            throw ServerError.badRequest(
                "this server has no \(target.provider) credentials; it pushes through \(notifier.settings.providers.joined(separator: ", "))"
            )
        }
        try await store.setPushTarget(
            target, accountId: device.account.id, deviceId: device.device.deviceId, now: ServerClock.milliseconds())
        notifier.targetChanged(DeviceAddress(accountId: device.account.id, deviceId: device.device.deviceId))
    }

    /// The device's target, whether it can be woken (it has a signed prekey) and the providers available.
    func status(of device: AuthenticatedDevice) async throws -> PushTargetStatus {
        let target = try await store.pushTarget(accountId: device.account.id, deviceId: device.device.deviceId)
        let keys = try await store.hasSignedPreKey(accountId: device.account.id, deviceId: device.device.deviceId)
        return PushTargetStatus(target: target, keysRegistered: keys, providers: notifier.settings.providers)
    }

    /// Removes the device's target at its request; `false` when it had none.
    func remove(for device: AuthenticatedDevice) async throws -> Bool {
        try rateLimiter.take("push-target", accountId: device.account.id, policy: limits.rateLimits.pushTarget)
        return try await forget(accountId: device.account.id, deviceId: device.device.deviceId)
    }

    /// Removes the device's target (it starts over as a new installation, which registers its own); `false` when it
    /// had none.
    @discardableResult
    func forget(accountId: String, deviceId: UInt32) async throws -> Bool {
        let removed = try await store.removePushTarget(accountId: accountId, deviceId: deviceId, matching: nil)
        notifier.targetChanged(DeviceAddress(accountId: accountId, deviceId: deviceId))
        return removed
    }

    /// The key Web Push requests are signed with (URL-safe base64), a subscription's application server key.
    var vapidPublicKey: String { notifier.settings.vapid.publicKey }

    /// Checks every field of `target`; throws ``ServerError/badRequest(_:)`` naming the first that is malformed.
    /// A Web Push endpoint at a loopback, private or link-local address is refused unless `allowingPrivateHosts`.
    static func validate(_ target: PushTarget, allowingPrivateHosts: Bool) throws {
        switch target {
        case .webPush(let endpoint, let p256dh, let auth):
            guard endpoint.utf8.count <= maximumEndpointBytes, let url = URL(string: endpoint), url.scheme == "https",
                let host = url.host, !host.isEmpty, url.user == nil
            else { throw ServerError.badRequest("webPush.endpoint must be an https URL of at most \(maximumEndpointBytes) bytes") }
            guard allowingPrivateHosts || !EndpointHost.isPrivateAddress(host) else {
                throw ServerError.badRequest(
                    "webPush.endpoint names a loopback or private address; this server pushes only to public push services")
            }
            guard let key = Base64URL.decode(p256dh, maximumLength: 100), key.count == 65, key.first == 0x04,
                (try? P256.KeyAgreement.PublicKey(x963Representation: key)) != nil
            else { throw ServerError.badRequest("webPush.p256dh must be an uncompressed P-256 public key (65 bytes, URL-safe base64)") }
            guard let secret = Base64URL.decode(auth, maximumLength: 32), secret.count == 16 else {
                throw ServerError.badRequest("webPush.auth must be 16 bytes (URL-safe base64)")
            }
        case .apns(let token, let topic, _):
            guard (1...200).contains(token.utf8.count), token.utf8.allSatisfy(isTokenCharacter) else {
                throw ServerError.badRequest("apns.token must be 1…200 characters of A–Z, a–z, 0–9, '.', '_' and '-' (a hex device token)")
            }
            guard (1...255).contains(topic.utf8.count),
                topic.utf8.allSatisfy({ isTokenCharacter($0) && $0 != 95 })
            else { throw ServerError.badRequest("apns.topic must be the app's bundle id (1…255 characters of A–Z, a–z, 0–9, '.' and '-')") }
        case .fcm(let token):
            guard (1...maximumTokenBytes).contains(token.utf8.count), token.utf8.allSatisfy({ (33...126).contains($0) }) else {
                throw ServerError.badRequest("fcm.token must be 1…\(maximumTokenBytes) printable ASCII characters")
            }
        }
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 46 || byte == 45 || byte == 95
    }
}
