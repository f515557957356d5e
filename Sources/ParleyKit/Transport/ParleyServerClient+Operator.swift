import Foundation
import ParleyAPI

/// The operator's calls (`Authorization: Bearer <operator token>`): hash bank imports, registration invites and
/// accounts — what `parley-server dcd|invites|accounts` run against a live server.
extension ParleyServerClient {
    /// Uploads the file of hashes at `url` (one per line, or CSV with a hash column), streamed, into `bank`; the server
    /// imports it in the background and answers with the job.
    public func importHashes(fileAt url: URL, bank: String, operatorToken: String) async throws -> HashImportJob {
        let data = try await upload(fileAt: url, to: ContentDetectionRoutes.imports(bank: Self.pathComponent(bank)), contentType: "text/plain",
                                    authorization: Self.bearer(operatorToken), expecting: [200, 201, 202], timeout: .minutes(60))
        return try decode(HashImportJob.self, data)
    }

    /// Import job `id`'s progress.
    public func hashImportJob(_ id: String, operatorToken: String) async throws -> HashImportJob {
        let (_, data) = try await send(.GET, ContentDetectionRoutes.importJob(Self.pathComponent(id)), body: nil, as: nil, expecting: [200],
                                       extraHeaders: [("Authorization", Self.bearer(operatorToken))])
        return try decode(HashImportJob.self, data)
    }

    /// A new registration invite.
    public func createInvite(_ invite: CreateInviteRequest, operatorToken: String) async throws -> InviteResponse {
        let (_, data) = try await send(.POST, OperatorRoutes.invites, body: try JSONEncoder().encode(invite), as: nil, expecting: [200, 201],
                                       extraHeaders: [("Authorization", Self.bearer(operatorToken))])
        return try decode(InviteResponse.self, data)
    }

    /// A page of up to `limit` accounts after account id `after`, by id.
    public func operatorAccounts(after: String?, limit: Int, operatorToken: String) async throws -> OperatorAccountListResponse {
        var query = "?limit=\(limit)"
        if let after { query += "&after=" + Self.pathComponent(after) }
        let (_, data) = try await send(.GET, OperatorRoutes.accounts + query, body: nil, as: nil, expecting: [200],
                                       extraHeaders: [("Authorization", Self.bearer(operatorToken))])
        return try decode(OperatorAccountListResponse.self, data)
    }

    /// Disables account `accountId` (its devices cannot authenticate and their sockets close), or enables it again.
    public func setAccountDisabled(_ disabled: Bool, accountId: String, operatorToken: String) async throws {
        _ = try await send(.PUT, OperatorRoutes.accountDisabled(Self.pathComponent(accountId)),
                           body: try JSONEncoder().encode(AccountDisabledRequest(disabled: disabled)), as: nil, expecting: [200, 204],
                           extraHeaders: [("Authorization", Self.bearer(operatorToken))])
    }

    /// Deletes account `accountId` with its devices, keys, mailboxes and PIN backup.
    public func deleteAccount(_ accountId: String, operatorToken: String) async throws {
        _ = try await send(.DELETE, OperatorRoutes.account(Self.pathComponent(accountId)), body: nil, as: nil, expecting: [200, 204],
                           extraHeaders: [("Authorization", Self.bearer(operatorToken))])
    }

    static func bearer(_ token: String) -> String { "Bearer \(token)" }
}
