import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ParleyAPI
import ParleyHTTP

/// The operator's calls to a running server (`Authorization: Bearer <operator token>`): hash bank imports,
/// registration invites and accounts — what `parley-server dcd|invites|accounts` run. The server's own module, apart
/// from the client's (ParleyKit): an operator's tool needs no client database, keys or pipelines.
public struct OperatorClient: Sendable {
    /// The server's base URL (`http://127.0.0.1:8080`).
    public let baseURL: String
    private let http: HTTPClient
    private let token: String

    /// A client of the server at `baseURL` over `http`, with the operator credential `token`.
    public init(baseURL: String, http: HTTPClient, token: String) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.http = http
        self.token = token
    }

    /// Uploads the file of hashes at `url` (one per line, or CSV with a hash column), streamed, into `bank`; the server
    /// imports it in the background and answers with the job.
    /// - Throws: ``OperatorClientError``.
    public func importHashes(fileAt url: URL, bank: String) async throws -> HashImportJob {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber,
            FileManager.default.isReadableFile(atPath: url.path)
        else { throw OperatorClientError.unreadableFile(url.path) }
        var request = request(.POST, ContentDetectionRoutes.imports(bank: Self.pathComponent(bank)))
        request.headers.add(name: "Content-Type", value: "text/plain")
        request.body = .stream(FileChunks(url: url), length: .known(size.int64Value))
        return try decode(HashImportJob.self, try await execute(request, expecting: [200, 201, 202], timeout: .minutes(60)))
    }

    /// Import job `id`'s progress.
    /// - Throws: ``OperatorClientError``.
    public func hashImportJob(_ id: String) async throws -> HashImportJob {
        try decode(
            HashImportJob.self, try await execute(request(.GET, ContentDetectionRoutes.importJob(Self.pathComponent(id))), expecting: [200])
        )
    }

    /// A new registration invite.
    /// - Throws: ``OperatorClientError``.
    public func createInvite(_ invite: CreateInviteRequest) async throws -> InviteResponse {
        let request = try request(.POST, OperatorRoutes.invites, json: invite)
        return try decode(InviteResponse.self, try await execute(request, expecting: [200, 201]))
    }

    /// A page of up to `limit` accounts after account id `after`, by id.
    /// - Throws: ``OperatorClientError``.
    public func accounts(after: String?, limit: Int) async throws -> OperatorAccountListResponse {
        var query = "?limit=\(limit)"
        if let after { query += "&after=" + Self.pathComponent(after) }
        return try decode(
            OperatorAccountListResponse.self, try await execute(request(.GET, OperatorRoutes.accounts + query), expecting: [200]))
    }

    /// Disables account `accountId` (its devices cannot authenticate and their sockets close), or enables it again.
    /// - Throws: ``OperatorClientError``.
    public func setAccountDisabled(_ disabled: Bool, accountId: String) async throws {
        let request = try request(
            .PUT, OperatorRoutes.accountDisabled(Self.pathComponent(accountId)),
            json: AccountDisabledRequest(disabled: disabled))
        _ = try await execute(request, expecting: [200, 204])
    }

    /// Deletes account `accountId` with its devices, keys, mailboxes and PIN backup.
    /// - Throws: ``OperatorClientError``.
    public func deleteAccount(_ accountId: String) async throws {
        _ = try await execute(request(.DELETE, OperatorRoutes.account(Self.pathComponent(accountId))), expecting: [200, 204])
    }

    // MARK: The one request path

    private func request(_ method: HTTPMethod, _ path: String) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        return request
    }

    private func request(_ method: HTTPMethod, _ path: String, json body: some Encodable) throws -> HTTPClientRequest {
        var request = request(method, path)
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        return request
    }

    /// The answer's body (at most 32 MiB) when its status is one of `expecting`.
    private func execute(_ request: HTTPClientRequest, expecting: Set<Int>, timeout: TimeAmount = .seconds(30)) async throws -> Data {
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: timeout)
        } catch {
            throw OperatorClientError.transport(TransportFailure.describe(error, server: baseURL))
        }
        let status = Int(response.status.code)
        let data: Data
        do {
            data = Data((try await response.body.collect(upTo: 32 * 1024 * 1024)).readableBytesView)
        } catch {
            throw OperatorClientError.malformedResponse("the answer did not arrive whole (\(error))")
        }
        guard expecting.contains(status) else {
            throw OperatorClientError.rejected(status: status, body: try? JSONDecoder().decode(APIErrorBody.self, from: data))
        }
        return data
    }

    private func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        do { return try JSONDecoder().decode(T.self, from: data) } catch {
            throw OperatorClientError.malformedResponse("\(T.self): \(error)")
        }
    }

    /// `text` as one percent-encoded path segment.
    static func pathComponent(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? text
    }
}
