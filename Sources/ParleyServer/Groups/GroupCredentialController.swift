import Foundation
import Hummingbird
import ParleyAPI
import ParleyProtocol

/// Group credentials over REST: the zkgroup public params, and an account's daily auth credentials.
struct GroupCredentialController: Sendable {
    let issuer: GroupCredentialIssuer
    let limits: ServerLimits
    let rateLimiter: RateLimiter

    func addRoutes(to routes: ServerRoutes) {
        routes.open.get(RouterPath(APIRoutes.zkGroupPublicParams), use: publicParams)
        routes.device.get(RouterPath(APIRoutes.groupAuthCredentials), use: authCredentials)
    }

    /// `GET /v1/config/zkgroup`.
    @Sendable func publicParams(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        try JSONCoding.response(ZKGroupPublicParamsResponse(serverPublicParams: issuer.publicParams.base64EncodedString()))
    }

    /// `GET /v1/certificate/auth/group?redemptionStartSeconds=&redemptionEndSeconds=`: at most eight credentials (one a
    /// day), each a few milliseconds of work, so a request's cost is bounded; rate limited per account.
    @Sendable func authCredentials(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        try rateLimiter.take("group-credentials", accountId: context.device.account.id, policy: limits.rateLimits.groupCredentials)
        let query = request.uri.queryParameters
        guard let startText = query["redemptionStartSeconds"], let start = UInt64(startText),
            let endText = query["redemptionEndSeconds"], let end = UInt64(endText)
        else { throw ServerError.badRequest("redemptionStartSeconds and redemptionEndSeconds are required whole numbers of seconds") }
        guard let uuid = UUID(uuidString: context.device.account.id) else {
            throw ServerError.internalFailure("the account id is not a UUID")
        }
        let aci = Aci(fromUUID: uuid)
        let issued: [(redemptionTime: UInt64, credential: Data)]
        do {
            issued = try issuer.credentials(aci: aci, start: start, end: end, now: Date())
        } catch let error as GroupCredentialRangeError {
            throw ServerError.badRequest(error.description)
        }
        return try JSONCoding.response(
            GroupAuthCredentialsResponse(
                credentials: issued.map { .init(credential: $0.credential.base64EncodedString(), redemptionTime: $0.redemptionTime) },
                authCredentialSalt: issuer.pniSalt(accountId: aci.serviceIdString).base64EncodedString()))
    }
}
