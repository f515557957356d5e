import Foundation
import Hummingbird
import ParleyAPI

/// The push targets' REST front door (`/v1/devices/self/push`) and the VAPID key (`/v1/push/vapid-key`); the rules
/// are in ``PushTargetDirectory``.
struct PushController: Sendable {
    let directory: PushTargetDirectory
    let limits: ServerLimits

    func addRoutes(to routes: ServerRoutes) {
        routes.device.put(RouterPath(APIRoutes.pushTarget), use: register)
        routes.device.get(RouterPath(APIRoutes.pushTarget), use: status)
        routes.device.delete(RouterPath(APIRoutes.pushTarget), use: remove)
        routes.open.get(RouterPath(APIRoutes.vapidKey), use: vapidKey)
    }

    @Sendable func register(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let target = try await JSONCoding.decode(PushTarget.self, from: request, limit: limits.smallBodyBytes)
        try await directory.register(target, for: context.device)
        return Response(status: .noContent)
    }

    @Sendable func status(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        try JSONCoding.response(try await directory.status(of: context.device))
    }

    @Sendable func remove(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        guard try await directory.remove(for: context.device) else { throw ServerError.notFound("the device has no push target") }
        return Response(status: .noContent)
    }

    @Sendable func vapidKey(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        try JSONCoding.response(VAPIDKeyResponse(publicKey: directory.vapidPublicKey))
    }
}
