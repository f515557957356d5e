import Foundation
import Hummingbird
import ParleyAPI

/// The provisioning mailbox: a primary device leaves one encrypted message for a new device on another machine,
/// which takes it without credentials (it has none yet) by the random address it chose. The server never sees
/// what is inside: the envelope is encrypted to the new device's ephemeral key.
struct ProvisioningController: Sendable {
    let store: any LinkingStore
    let limits: ServerLimits
    let rateLimiter: RateLimiter

    func addRoutes(to routes: ServerRoutes) {
        routes.device.put(RouterPath(APIRoutes.provisioning("{address}")), use: put)
        routes.open.get(RouterPath(APIRoutes.provisioning("{address}")), use: take)
    }

    /// `PUT /v1/provisioning/{address}`: the primary device leaves the message (once per address).
    @Sendable func put(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let caller = context.device
        let address = try context.pathParameter("address")
        guard caller.device.deviceId == 1 else { throw ServerError.forbidden("only the primary device can provision devices") }
        guard ProvisioningMessage.isValidAddress(address) else {
            throw ServerError.badRequest("a provisioning address is 22 to 64 base64url characters")
        }
        try rateLimiter.take("provisioning", accountId: caller.account.id, policy: limits.rateLimits.linkCode)
        let message = try await JSONCoding.decode(
            ProvisioningMessage.self, from: request, limit: limits.provisioningMessageBytes * 4 / 3 + 1024)
        guard let body = Data(base64Encoded: message.body), !body.isEmpty else {
            throw ServerError.badRequest("body must be non-empty base64")
        }
        guard body.count <= limits.provisioningMessageBytes else { throw ServerError.payloadTooLarge(limits.provisioningMessageBytes) }
        let expires = ServerClock.milliseconds() + limits.linkCodeLifetimeMilliseconds
        guard try await store.storeProvisioningMessage(address: address, body: Array(body), expires: expires) else {
            throw ServerError.conflict(code: "address_taken", message: "this provisioning address already holds a message")
        }
        return Response(status: .noContent)
    }

    /// `GET /v1/provisioning/{address}`: the new device takes the message; 404 until it is there, and after.
    @Sendable func take(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        try rateLimiter.take("unauthenticated", address: context.clientAddress, policy: limits.rateLimits.unauthenticatedPerAddress)
        let address = try context.pathParameter("address")
        guard ProvisioningMessage.isValidAddress(address) else {
            throw ServerError.badRequest("a provisioning address is 22 to 64 base64url characters")
        }
        guard let body = try await store.takeProvisioningMessage(address: address, now: ServerClock.milliseconds()) else {
            throw ServerError.notFound("no provisioning message at this address (yet)")
        }
        return try JSONCoding.response(ProvisioningMessage(body: Data(body).base64EncodedString()))
    }
}
