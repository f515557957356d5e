import Foundation
import Hummingbird
import ParleyAPI

/// Usernames over REST (Signal's routes). Parses and presents; ``UsernameService`` decides.
struct UsernameController: Sendable {
    let usernames: UsernameService
    let limits: ServerLimits

    func addRoutes(to routes: ServerRoutes) {
        routes.device.put(RouterPath(UsernameRoutes.reserve), use: reserve)
        routes.device.put(RouterPath(UsernameRoutes.confirm), use: confirm)
        routes.device.get(RouterPath(UsernameRoutes.hash), use: current)
        routes.device.delete(RouterPath(UsernameRoutes.hash), use: delete)
        routes.open.get(RouterPath(UsernameRoutes.lookup(usernameHash: "{hash}")), use: lookup)
        routes.device.put(RouterPath(UsernameRoutes.link), use: setLink)
        routes.device.delete(RouterPath(UsernameRoutes.link), use: deleteLink)
        routes.open.get(RouterPath(UsernameRoutes.link(handle: "{handle}")), use: link)
    }

    @Sendable func reserve(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let body = try await JSONCoding.decode(ReserveUsernameHashRequest.self, from: request, limit: limits.smallBodyBytes)
        return try JSONCoding.response(
            try await usernames.reserve(body, accountId: context.device.account.id, now: ServerClock.milliseconds()))
    }

    @Sendable func confirm(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let body = try await JSONCoding.decode(ConfirmUsernameHashRequest.self, from: request, limit: limits.smallBodyBytes)
        return try JSONCoding.response(
            try await usernames.confirm(body, accountId: context.device.account.id, now: ServerClock.milliseconds()))
    }

    @Sendable func current(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        try JSONCoding.response(try await usernames.current(accountId: context.device.account.id))
    }

    @Sendable func delete(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        try await usernames.delete(accountId: context.device.account.id)
        return Response(status: .noContent)
    }

    @Sendable func lookup(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        try JSONCoding.response(try await usernames.lookup(try context.pathParameter("hash"), address: context.clientAddress))
    }

    @Sendable func setLink(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let body = try await JSONCoding.decode(EncryptedUsername.self, from: request, limit: limits.smallBodyBytes)
        return try JSONCoding.response(try await usernames.setLink(body, accountId: context.device.account.id))
    }

    @Sendable func deleteLink(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        try await usernames.deleteLink(accountId: context.device.account.id)
        return Response(status: .noContent)
    }

    @Sendable func link(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        try JSONCoding.response(try await usernames.link(handle: try context.pathParameter("handle"), address: context.clientAddress))
    }
}
