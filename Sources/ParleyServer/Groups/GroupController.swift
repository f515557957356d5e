import Foundation
import Hummingbird
import ParleyAPI
import ParleyProtocol
import SwiftProtobuf

/// Server-stored groups and profile key credentials over REST. Parses and presents; ``GroupService`` and
/// ``ProfileKeyCredentialService`` decide.
struct GroupController: Sendable {
    let groups: GroupService
    let profiles: ProfileKeyCredentialService
    let authenticator: GroupAuthenticator
    let limits: ServerLimits
    let rateLimiter: RateLimiter

    func addRoutes(to routes: ServerRoutes) {
        routes.open.put(RouterPath(APIRoutes.groups), use: create)
        routes.open.get(RouterPath(APIRoutes.groups), use: read)
        routes.open.patch(RouterPath(APIRoutes.groups), use: modify)
        routes.open.get(RouterPath(APIRoutes.groupLogs), use: logs)
        routes.open.get(RouterPath(APIRoutes.groupJoinInfo), use: joinInfo)
        routes.device.put(RouterPath(APIRoutes.profileKeyCommitment), use: publishCommitment)
        routes.device.get(RouterPath(APIRoutes.profileKeyCredential), use: profileKeyCredential)
    }

    /// `PUT /v2/groups`.
    @Sendable func create(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        let caller = try authenticate(request, context)
        let body = try await JSONCoding.body(of: request, limit: limits.groups.bodyBytes)
        return try await Self.answer { try await groups.create(body, caller: caller, now: Date(), charge: charge(context)) }
    }

    /// `GET /v2/groups`.
    @Sendable func read(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        let caller = try authenticate(request, context)
        return try await Self.answer { try await groups.group(caller: caller, now: Date()) }
    }

    /// `PATCH /v2/groups[?inviteLinkPassword=]`.
    @Sendable func modify(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        let caller = try authenticate(request, context)
        var password: Data?
        if let text = request.uri.queryParameters["inviteLinkPassword"] {
            guard let decoded = Base64URL.decode(String(text)) else { throw ServerError.badRequest("inviteLinkPassword is not base64url") }
            password = Data(decoded)
        }
        let body = try await JSONCoding.body(of: request, limit: limits.groups.bodyBytes)
        return try await Self.answer {
            try await groups.modify(body, caller: caller, inviteLinkPassword: password, now: Date(), charge: charge(context))
        }
    }

    /// `GET /v2/groups/logs/{fromVersion}`: 200 for the last page, 206 with `Content-Range` while more remain.
    @Sendable func logs(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        let caller = try authenticate(request, context)
        guard let from = UInt32(try context.pathParameter("fromVersion")) else {
            throw ServerError.badRequest("fromVersion is a revision number")
        }
        let query = request.uri.queryParameters
        let page = try await Self.run {
            try await groups.changes(
                caller: caller, from: from, includeFirstState: query["includeFirstState"] == "true",
                includeLastState: query["includeLastState"] == "true", now: Date())
        }
        var response = try Self.protobuf(page.changes)
        if page.last < page.current {
            response.status = .partialContent
            response.headers[.contentRange] = "versions \(from)-\(page.last)/\(page.current)"
        }
        return response
    }

    /// `GET /v1/groups/join/{inviteLinkPassword}`.
    @Sendable func joinInfo(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        let caller = try authenticate(request, context)
        guard let password = Base64URL.decode(try context.pathParameter("inviteLinkPassword")) else {
            throw ServerError.badRequest("the invite link password is not base64url")
        }
        return try await Self.answer { try await groups.joinInfo(caller: caller, password: Data(password)) }
    }

    /// `PUT /v1/profile/commitment`.
    @Sendable func publishCommitment(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let accountId = context.device.account.id
        try rateLimiter.take("profile-key-credentials", accountId: accountId, policy: limits.rateLimits.profileKeyCredentials)
        let body = try await JSONCoding.decode(ProfileKeyCommitmentRequest.self, from: request, limit: limits.smallBodyBytes)
        guard let commitment = Data(base64Encoded: body.commitment) else { throw ServerError.badRequest("commitment is not base64") }
        try await Self.run { try await profiles.publish(accountId: accountId, version: body.version, commitment: commitment, now: Date()) }
        return Response(status: .noContent)
    }

    /// `GET /v1/profile/{aci}/{version}/{credentialRequest}?credentialType=expiringProfileKey`.
    @Sendable func profileKeyCredential(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        try rateLimiter.take(
            "profile-key-credentials", accountId: context.device.account.id, policy: limits.rateLimits.profileKeyCredentials)
        guard request.uri.queryParameters["credentialType"] == "expiringProfileKey" else {
            throw ServerError.badRequest("credentialType must be expiringProfileKey")
        }
        guard let aci = try? Aci.parseFrom(serviceIdString: try context.pathParameter("aci")) else {
            throw ServerError.badRequest("the path's aci is not an ACI service id")
        }
        guard let requestBytes = GroupAuthenticator.hex(Substring(try context.pathParameter("credentialRequest"))) else {
            throw ServerError.badRequest("the credential request is not hex")
        }
        let version = try context.pathParameter("version")
        let credential = try await Self.run {
            try await profiles.credential(aci: aci, version: version, request: requestBytes, now: Date())
        }
        return try JSONCoding.response(ProfileKeyCredentialResponse(credential: credential.base64EncodedString()))
    }

    // MARK: Presenting

    private func authenticate(_ request: Request, _ context: ParleyRequestContext) throws -> GroupCaller {
        try rateLimiter.take("groups", address: context.clientAddress, policy: limits.rateLimits.groupRequestsPerAddress)
        guard let caller = authenticator.caller(authorization: request.headers[.authorization], now: Date()) else {
            throw ServerError.groupCredentialRequired
        }
        return caller
    }

    /// Takes one token per presentation a request holds from its address's bucket (each is a ~2.5 ms check).
    private func charge(_ context: ParleyRequestContext) -> (Int) throws -> Void {
        { [rateLimiter, limits] count in
            guard count > 0 else { return }
            try rateLimiter.take(
                "group-presentations", address: context.clientAddress, policy: limits.rateLimits.groupPresentationsPerAddress, tokens: count
            )
        }
    }

    private static func answer(_ body: () async throws -> some SwiftProtobuf.Message) async throws -> Response {
        try protobuf(try await run(body))
    }

    /// Runs `body`, presenting the rules' refusals as HTTP errors.
    private static func run<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as GroupRuleError {
            switch error {
            case .invalid(let reason): throw ServerError.badRequest(reason)
            case .forbidden(let reason): throw ServerError.forbidden(reason)
            case .notFound: throw ServerError.notFound(error.description)
            case .staleRevision: throw ServerError.conflict(code: "group_revision_conflict", message: error.description)
            }
        }
    }

    private static func protobuf(_ message: some SwiftProtobuf.Message) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = APIRoutes.groupContentType
        let bytes: [UInt8] = try message.serializedBytes()
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
