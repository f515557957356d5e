import Foundation
import Hummingbird
import ParleyAPI

/// `PUT /v1/ephemeral/{account}`: the REST door of ``EphemeralRelay`` (a JSON ``EphemeralEvent`` in, 204 out), taking
/// a device's credentials or the recipient's `Unidentified-Access-Key` (a sealed typing indicator, relayed naming no one).
struct EphemeralController: Sendable {
    let relay: EphemeralRelay
    let limits: ServerLimits

    func addRoutes(to routes: ServerRoutes) {
        routes.sender.put(RouterPath(APIRoutes.sealedEphemeral(to: "{account}")), use: put)
    }

    @Sendable func put(_ request: Request, context: SenderRequestContext) async throws -> Response {
        let accountId = try context.pathParameter("account")
        let event = try await JSONCoding.decode(EphemeralEvent.self, from: request, limit: limits.ephemeralContentBytes * 2 + 1024)
        try await relay.relay(event, to: accountId, from: context.authorization)
        return Response(status: .noContent)
    }
}
