import Foundation
import NIOHTTP1
import ParleyAPI

/// The push target routes: where the server wakes this device when messages wait and it is not connected.
extension ParleyServerClient {
    /// Registers `target` for the device, replacing its previous one.
    public func registerPushTarget(_ target: PushTarget, as device: DeviceCredentials) async throws {
        _ = try await send(.PUT, APIRoutes.pushTarget, body: try JSONEncoder().encode(target), as: device, expecting: [204])
    }

    /// The device's target, whether the server can wake it (its keys are uploaded) and the server's providers.
    public func pushStatus(as device: DeviceCredentials) async throws -> PushTargetStatus {
        try await call(.GET, APIRoutes.pushTarget, as: device, expecting: [200])
    }

    /// Removes the device's target; `false` when it had none.
    @discardableResult
    public func removePushTarget(as device: DeviceCredentials) async throws -> Bool {
        try await send(.DELETE, APIRoutes.pushTarget, body: nil, as: device, expecting: [204, 404]).0 == 204
    }

    /// The server's VAPID public key (URL-safe base64), the application server key of a Web Push subscription.
    public func vapidKey() async throws -> String {
        let response: VAPIDKeyResponse = try await call(.GET, APIRoutes.vapidKey, as: nil, expecting: [200])
        return response.publicKey
    }
}
