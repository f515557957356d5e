import Foundation
import Hummingbird
import ParleyAPI

/// The key directory's REST front door: base64 JSON in and out, the rules in ``KeyDirectory``.
struct KeyController: Sendable {
    let directory: KeyDirectory
    let limits: ServerLimits

    func addRoutes(to routes: ServerRoutes) {
        routes.device.put(RouterPath(APIRoutes.keys), use: upload)
        routes.device.get(RouterPath(APIRoutes.keyCount), use: count)
        // Device credentials, or the account's unidentified access key (a sealed sender's fetch names no sender).
        routes.sender.get(RouterPath(APIRoutes.bundle(accountId: "{account}", deviceId: "{device}")), use: bundle)
    }

    @Sendable func upload(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let caller = context.device
        let body = try await JSONCoding.decode(UploadKeysRequest.self, from: request, limit: limits.keyUploadBytes)
        func signed(_ entity: SignedPreKeyEntity, _ field: String) throws -> UploadedKey {
            UploadedKey(
                keyId: entity.keyId, publicKey: try KeyValidation.bytes(entity.publicKey, field: "\(field).publicKey"),
                signature: try KeyValidation.bytes(entity.signature, field: "\(field).signature"))
        }
        var keys = UploadedKeys()
        keys.signedPreKey = try body.signedPreKey.map { try signed($0, "signedPreKey") }
        keys.preKeys = try (body.preKeys ?? []).map {
            UploadedKey(keyId: $0.keyId, publicKey: try KeyValidation.bytes($0.publicKey, field: "preKeys.publicKey"), signature: nil)
        }
        keys.kemPreKeys = try (body.kemPreKeys ?? []).map { try signed($0, "kemPreKeys") }
        keys.lastResortKemPreKey = try body.lastResortKemPreKey.map { try signed($0, "lastResortKemPreKey") }
        try await directory.upload(keys, by: caller)
        return Response(status: .noContent)
    }

    @Sendable func count(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let counts = try await directory.counts(of: context.device)
        return try JSONCoding.response(PreKeyCountResponse(count: counts.oneTime, kemCount: counts.kem))
    }

    @Sendable func bundle(_ request: Request, context: SenderRequestContext) async throws -> Response {
        let accountId = try context.pathParameter("account")
        let deviceSelector = try context.pathParameter("device")
        let deviceIds: [UInt32]?
        if deviceSelector == "*" {
            deviceIds = nil
        } else if let id = UInt32(deviceSelector) {
            deviceIds = [id]
        } else {
            throw ServerError.badRequest("device must be a number or *")
        }
        let (account, claimed) = try await directory.bundles(accountId: accountId, deviceIds: deviceIds, for: context.authorization)
        let b64 = { (bytes: [UInt8]) in Data(bytes).base64EncodedString() }
        let signed = { (key: StoredPreKey) in
            SignedPreKeyEntity(keyId: key.keyId, publicKey: b64(key.publicKey), signature: b64(key.signature ?? []))
        }
        let devices = claimed.map { bundle in
            DeviceBundle(
                deviceId: bundle.device.deviceId, registrationId: bundle.device.registrationId,
                signedPreKey: signed(bundle.signedPreKey),
                preKey: bundle.preKey.map { PreKeyEntity(keyId: $0.keyId, publicKey: b64($0.publicKey)) },
                kemPreKey: bundle.kemPreKey.map(signed))
        }
        return try JSONCoding.response(PreKeyBundleResponse(identityKey: b64(account.identityKey), devices: devices))
    }
}
