import Crypto
import Foundation
import Hummingbird
import ParleyAPI

/// The operator's API for an open server (`Authorization: Bearer <operator token>`): registration invites, and
/// listing, disabling, enabling and deleting accounts. `parley-server invites|accounts` are its command line.
struct AccountAdministrationController: Sendable {
    let store: any AccountStore & AdministrationStore
    let limits: ServerLimits
    /// Sockets to close when an account is disabled or deleted.
    let hub: DeliveryHub

    func addRoutes(to routes: ServerRoutes) {
        routes.operator.post(RouterPath(OperatorRoutes.invites), use: createInvite)
        routes.operator.get(RouterPath(OperatorRoutes.accounts), use: listAccounts)
        routes.operator.put(RouterPath(OperatorRoutes.accountDisabled("{account}")), use: setDisabled)
        routes.operator.delete(RouterPath(OperatorRoutes.account("{account}")), use: delete)
    }

    /// `POST /v1/operator/invites`: a new invite token, shown once.
    @Sendable func createInvite(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        let body = try await JSONCoding.decode(CreateInviteRequest.self, from: request, limit: limits.smallBodyBytes)
        let uses = body.uses ?? 1
        let hours = body.expiresInHours ?? 168
        guard (1...10_000).contains(uses) else { throw ServerError.badRequest("uses must be 1…10000") }
        guard (1...8_760).contains(hours) else { throw ServerError.badRequest("expiresInHours must be 1…8760") }
        var generator = SystemRandomNumberGenerator()
        let token = Base64URL.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let now = ServerClock.milliseconds()
        let expires = now + UInt64(hours) * 3_600_000
        try await store.createInvite(
            StoredInvite(
                tokenHash: Array(SHA256.hash(data: Data(token.utf8))), usesLeft: uses,
                expires: expires, created: now))
        return try JSONCoding.response(InviteResponse(token: token, uses: uses, expiresAt: expires), status: .created)
    }

    /// `GET /v1/operator/accounts?after=&limit=`.
    @Sendable func listAccounts(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        let after = request.uri.queryParameters["after"].map(String.init)
        let limitText = request.uri.queryParameters["limit"].map(String.init)
        guard let limit = limitText.map({ Int($0) }) ?? 100, (1...1_000).contains(limit) else {
            throw ServerError.badRequest("limit must be 1…1000")
        }
        guard (after?.utf8.count ?? 0) <= 64 else { throw ServerError.badRequest("after is an account id") }
        let page = try await store.accountSummaries(after: after, limit: limit + 1)
        let accounts = page.prefix(limit).map {
            OperatorAccount(accountId: $0.id, username: $0.username, devices: $0.devices, created: $0.created, disabled: $0.disabled)
        }
        return try JSONCoding.response(
            OperatorAccountListResponse(
                accounts: Array(accounts), next: page.count > limit ? accounts.last?.accountId : nil))
    }

    /// `PUT /v1/operator/accounts/{account}/disabled`: its devices can no longer authenticate (403); open sockets close.
    @Sendable func setDisabled(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        let accountId = try context.pathParameter("account")
        let body = try await JSONCoding.decode(AccountDisabledRequest.self, from: request, limit: limits.smallBodyBytes)
        let id = try Self.validated(accountId)
        guard try await store.setAccountDisabled(id: id, disabled: body.disabled) else {
            throw ServerError.notFound("no account \(accountId)")
        }
        if body.disabled { hub.disconnect(accountId: id) }
        return Response(status: .noContent)
    }

    /// `DELETE /v1/operator/accounts/{account}`: the account, its devices, keys, mailboxes and backup; its username is free.
    @Sendable func delete(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        let accountId = try context.pathParameter("account")
        let id = try Self.validated(accountId)
        guard try await store.deleteAccount(id: id) else { throw ServerError.notFound("no account \(accountId)") }
        hub.disconnect(accountId: id)
        return Response(status: .noContent)
    }

    /// The stored form of an account id from a path (lowercase); one too long to be an id is a 404.
    private static func validated(_ accountId: String) throws -> String {
        guard accountId.utf8.count <= 64 else { throw ServerError.notFound("no account \(accountId.prefix(64))") }
        return accountId.lowercased()
    }
}
