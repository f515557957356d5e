import Foundation
import Hummingbird
import ParleyAPI
import ParleyProtocol

/// The key directory: upload, counts, and bundles with atomic one-time key claims.
struct KeyController: Sendable {
    let store: any ServerStore
    let authenticator: DeviceAuthenticator
    let limits: ServerLimits
    let rateLimiter: RateLimiter

    func upload(_ request: Request) async throws -> Response {
        let caller = try await authenticator.authenticate(request)
        let body = try await JSONCoding.decode(UploadKeysRequest.self, from: request, limit: limits.keyUploadBytes)
        guard (body.preKeys?.count ?? 0) <= limits.keysPerUpload, (body.kemPreKeys?.count ?? 0) <= limits.keysPerUpload else {
            throw ServerError.badRequest("at most \(limits.keysPerUpload) keys of each kind per upload")
        }
        guard let identity = try? PublicKey(caller.account.identityKey) else { throw ServerError.internalFailure("stored identity key") }
        var upload = KeyUpload()
        upload.signedPreKey = try body.signedPreKey.map { try KeyValidation.signedPreKey($0, identity: identity) }
        upload.preKeys = try (body.preKeys ?? []).map(KeyValidation.preKey)
        upload.kemPreKeys = try (body.kemPreKeys ?? []).map { try KeyValidation.kemPreKey($0, identity: identity, what: "kemPreKeys") }
        upload.lastResortKemPreKey = try body.lastResortKemPreKey.map {
            try KeyValidation.kemPreKey($0, identity: identity, what: "lastResortKemPreKey")
        }
        if let lastResort = upload.lastResortKemPreKey, upload.kemPreKeys.contains(where: { $0.keyId == lastResort.keyId }) {
            throw ServerError.badRequest("KEM prekey id \(lastResort.keyId) is both one-time and last resort")
        }
        do {
            try await store.storeKeys(upload, accountId: caller.account.id, deviceId: caller.device.deviceId)
        } catch ServerStoreError.kemKeyIdInUse(let id) {
            throw ServerError.badRequest("KEM prekey id \(id) is already used by the other kind of KEM prekey")
        }
        return Response(status: .noContent)
    }

    func count(_ request: Request) async throws -> Response {
        let caller = try await authenticator.authenticate(request)
        let counts = try await store.preKeyCounts(accountId: caller.account.id, deviceId: caller.device.deviceId)
        return try JSONCoding.response(PreKeyCountResponse(count: counts.oneTime, kemCount: counts.kem))
    }

    func bundle(_ request: Request, accountId: String, deviceSelector: String) async throws -> Response {
        let caller = try await authenticator.authenticate(request)
        // Each fetch may use up one-time keys of another account: bounded per caller.
        try rateLimiter.take("bundle", accountId: caller.account.id, policy: limits.rateLimits.bundleFetch)
        let deviceIds: [UInt32]?
        if deviceSelector == "*" {
            deviceIds = nil
        } else if let id = UInt32(deviceSelector) {
            deviceIds = [id]
        } else {
            throw ServerError.badRequest("device must be a number or *")
        }
        guard let account = try await store.account(id: accountId.lowercased()) else {
            throw ServerError.notFound("no account \(accountId)")
        }
        let claimed = try await store.claimBundles(accountId: account.id, deviceIds: deviceIds)
        guard !claimed.isEmpty else { throw ServerError.notFound("no device with published keys") }
        let b64 = { (bytes: [UInt8]) in Data(bytes).base64EncodedString() }
        let signed = { (key: StoredPreKey) in SignedPreKeyEntity(keyId: key.keyId, publicKey: b64(key.publicKey), signature: b64(key.signature ?? [])) }
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
