import Foundation
import Hummingbird
import ParleyAPI

/// Sender certificates over REST: the authenticated device's certificate, and the trust root they lead to.
struct SenderCertificateController: Sendable {
    let settings: SealedSenderSettings

    func addRoutes(to routes: ServerRoutes) {
        routes.device.get(RouterPath(APIRoutes.deliveryCertificate), use: delivery)
        routes.open.get(RouterPath(APIRoutes.sealedSenderTrustRoot), use: trustRoot)
    }

    /// `GET /v1/certificate/delivery`: a certificate naming the caller's account, device and identity key.
    @Sendable func delivery(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let caller = context.device
        let certificate = try settings.certificate(
            accountId: caller.account.id, deviceId: caller.device.deviceId, identityKey: caller.account.identityKey)
        return try JSONCoding.response(DeliveryCertificateResponse(certificate: certificate.serialize().base64EncodedString()))
    }

    /// `GET /v1/certificate/trust-root`: the trust root's public key.
    @Sendable func trustRoot(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        try JSONCoding.response(SealedSenderTrustRootResponse(trustRoot: settings.trustRoot.serialize().base64EncodedString()))
    }
}
