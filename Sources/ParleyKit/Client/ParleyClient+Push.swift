import Crypto
import Foundation
import ParleyAPI

/// Waking this device: the push target the server notifies when messages wait and the device is not connected. The
/// notification carries nothing about the messages; the app connects and receives as usual.
extension ParleyClient {
    /// Registers `target` for this device, replacing its previous one.
    public func registerPushTarget(_ target: PushTarget) async throws {
        try await api.registerPushTarget(target, as: try credentials())
    }

    /// Registers the Web Push (UnifiedPush) `endpoint` with a subscription key pair and auth secret made for it.
    ///
    /// The server encrypts every push to these keys (RFC 8291), and what it encrypts is only "wake up": the private
    /// key is not kept, so nobody — the push service, the distributor, this device — ever reads more than the arrival
    /// itself says. Use ``registerPushTarget(_:)`` to register keys a push client made and keeps.
    @discardableResult
    public func registerWebPush(endpoint: String) async throws -> PushTarget {
        let key = P256.KeyAgreement.PrivateKey()
        var generator = SystemRandomNumberGenerator()
        let auth = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let target = PushTarget.webPush(
            endpoint: endpoint, p256dh: Base64URL.encode(key.publicKey.x963Representation), auth: Base64URL.encode(auth))
        try await registerPushTarget(target)
        return target
    }

    /// This device's target, whether the server can wake it (its keys are uploaded) and the server's providers.
    public func pushStatus() async throws -> PushTargetStatus {
        try await api.pushStatus(as: try credentials())
    }

    /// Stops waking this device; `false` when nothing was registered.
    @discardableResult
    public func removePushTarget() async throws -> Bool {
        try await api.removePushTarget(as: try credentials())
    }
}
