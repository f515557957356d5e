import Foundation
import GRPCCore
import Logging
import ParleyGRPC
import SwiftProtobuf

/// Seed 002's `nova.signal.e2ee.v1.SignalE2EEService`: the key directory's gRPC front door. It reads protobuf,
/// authenticates the device from the `authorization` metadata (HTTP Basic, as REST), hands the bytes to the same
/// ``KeyDirectory`` and ``DeviceDirectory`` the REST routes use, and maps ``ServerError`` to gRPC status codes.
struct SignalE2EEKeyService: Nova_Signal_E2ee_V1_SignalE2EEService.ServiceProtocol {
    let keys: KeyDirectory
    let devices: DeviceDirectory
    let authenticator: DeviceAuthenticator
    let metrics: ServerMetrics
    let logger: Logger

    func uploadKeys(
        request: ServerRequest<Nova_Signal_E2ee_V1_UploadKeysRequest>, context: ServerContext
    ) async throws -> ServerResponse<Nova_Signal_E2ee_V1_UploadKeysResponse> {
        try await handle("UploadKeys", request.metadata) { caller in
            let message = request.message
            // REST's body limit, measured on the message (the transport refuses anything over its own hard cap of
            // ``GRPCKeyServer/transportPayloadLimit`` by resetting the stream).
            let size = (try message.serializedBytes() as [UInt8]).count
            guard size <= keys.limits.keyUploadBytes else { throw ServerError.payloadTooLarge(keys.limits.keyUploadBytes) }
            guard message.deviceID == 0 || message.deviceID == caller.device.deviceId else {
                throw ServerError.badRequest("device_id \(message.deviceID) is not the authenticated device \(caller.device.deviceId)")
            }
            guard message.registrationID == 0 || message.registrationID == caller.device.registrationId else {
                throw ServerError.badRequest("registration_id \(message.registrationID) is not the device's registration id")
            }
            guard message.identityKey.isEmpty || [UInt8](message.identityKey) == caller.account.identityKey else {
                throw ServerError.badRequest("identity_key is not the account's identity key (it is set at registration)")
            }
            var upload = UploadedKeys()
            upload.signedPreKey = message.hasSignedPrekey ? UploadedKey(message.signedPrekey) : nil
            upload.preKeys = message.prekeys.map { UploadedKey(keyId: $0.id, publicKey: [UInt8]($0.publicKey), signature: nil) }
            upload.kemPreKeys = message.kyberPrekeys.map(UploadedKey.init)
            upload.lastResortKemPreKey = message.hasLastResortKyberPrekey ? UploadedKey(message.lastResortKyberPrekey) : nil
            try await keys.upload(upload, by: caller)
            let counts = try await keys.counts(of: caller)
            var response = Nova_Signal_E2ee_V1_UploadKeysResponse()
            response.prekeyCount = UInt32(clamping: counts.oneTime)
            response.kyberPrekeyCount = UInt32(clamping: counts.kem)
            return response
        }
    }

    func getPreKeyBundle(
        request: ServerRequest<Nova_Signal_E2ee_V1_GetPreKeyBundleRequest>, context: ServerContext
    ) async throws -> ServerResponse<Nova_Signal_E2ee_V1_PreKeyBundle> {
        try await handle("GetPreKeyBundle", request.metadata) { caller in
            let message = request.message
            guard !message.userID.isEmpty else { throw ServerError.badRequest("user_id (an account id) is required") }
            guard message.deviceID >= 1 else { throw ServerError.badRequest("device_id must be 1 or more") }
            let (account, claimed) = try await keys.bundles(accountId: message.userID, deviceIds: [message.deviceID], for: .device(caller))
            guard let bundle = claimed.first else { throw ServerError.notFound("no device with published keys") }
            var response = Nova_Signal_E2ee_V1_PreKeyBundle()
            response.userID = account.id
            response.deviceID = bundle.device.deviceId
            response.registrationID = bundle.device.registrationId
            response.identityKey = Data(account.identityKey)
            response.signedPrekey.id = bundle.signedPreKey.keyId
            response.signedPrekey.publicKey = Data(bundle.signedPreKey.publicKey)
            response.signedPrekey.signature = Data(bundle.signedPreKey.signature ?? [])
            if let preKey = bundle.preKey {
                response.oneTimeKey.id = preKey.keyId
                response.oneTimeKey.publicKey = Data(preKey.publicKey)
            }
            if let kem = bundle.kemPreKey {
                response.kyberPrekey.id = kem.keyId
                response.kyberPrekey.publicKey = Data(kem.publicKey)
                response.kyberPrekey.signature = Data(kem.signature ?? [])
            }
            return response
        }
    }

    func getPreKeyCount(
        request: ServerRequest<Nova_Signal_E2ee_V1_GetPreKeyCountRequest>, context: ServerContext
    ) async throws -> ServerResponse<Nova_Signal_E2ee_V1_PreKeyCountResponse> {
        try await handle("GetPreKeyCount", request.metadata) { caller in
            let asked = request.message.deviceID
            guard asked == 0 || asked == caller.device.deviceId else {
                throw ServerError.forbidden("a device can read only its own prekey count (device_id 0 or \(caller.device.deviceId))")
            }
            let counts = try await keys.counts(of: caller)
            var response = Nova_Signal_E2ee_V1_PreKeyCountResponse()
            response.prekeyCount = UInt32(clamping: counts.oneTime)
            response.kyberPrekeyCount = UInt32(clamping: counts.kem)
            return response
        }
    }

    func listDevices(
        request: ServerRequest<Nova_Signal_E2ee_V1_ListDevicesRequest>, context: ServerContext
    ) async throws -> ServerResponse<Nova_Signal_E2ee_V1_ListDevicesResponse> {
        try await handle("ListDevices", request.metadata) { caller in
            var response = Nova_Signal_E2ee_V1_ListDevicesResponse()
            response.devices = try await devices.devices(of: caller).map { stored in
                var device = Nova_Signal_E2ee_V1_Device()
                device.deviceID = stored.deviceId
                device.registrationID = stored.registrationId
                device.deviceName = stored.name ?? ""
                device.registeredAt = Int64(clamping: stored.created)
                return device
            }
            return response
        }
    }

    func removeDevice(
        request: ServerRequest<Nova_Signal_E2ee_V1_RemoveDeviceRequest>, context: ServerContext
    ) async throws -> ServerResponse<Nova_Signal_E2ee_V1_RemoveDeviceResponse> {
        try await handle("RemoveDevice", request.metadata) { caller in
            try await devices.remove(deviceId: request.message.deviceID, by: caller)
            return Nova_Signal_E2ee_V1_RemoveDeviceResponse()
        }
    }

    /// Authenticates the caller, runs `body`, and answers with its message or its error as a gRPC status; counts the
    /// call in `parley_grpc_requests_total`.
    private func handle<Output: Sendable>(
        _ method: String, _ metadata: Metadata, _ body: (AuthenticatedDevice) async throws -> Output
    ) async throws -> ServerResponse<Output> {
        let started = ContinuousClock.now
        do {
            let authorization = metadata[stringValues: "authorization"].first(where: { _ in true })
            let caller = try await authenticator.authenticate(authorization: authorization)
            let output = try await body(caller)
            metrics.countGRPCCall(method: method, code: "ok", duration: ContinuousClock.now - started)
            return ServerResponse(message: output)
        } catch {
            let status = GRPCStatusMapping.rpcError(for: error)
            if case ServerError.internalFailure(let detail) = error {
                logger.error("gRPC \(method) failed", metadata: ["detail": "\(detail)"])
            } else if !(error is ServerError) {
                logger.error("gRPC \(method) failed", metadata: ["error": "\(error)"])
            }
            metrics.countGRPCCall(method: method, code: "\(status.code)", duration: ContinuousClock.now - started)
            throw status
        }
    }
}

extension UploadedKey {
    /// A signed Curve25519 prekey as gRPC carries it.
    init(_ key: Nova_Signal_E2ee_V1_SignedPreKey) {
        self.init(keyId: key.id, publicKey: [UInt8](key.publicKey), signature: [UInt8](key.signature))
    }

    /// A signed KEM prekey as gRPC carries it.
    init(_ key: Nova_Signal_E2ee_V1_KyberPreKey) {
        self.init(keyId: key.id, publicKey: [UInt8](key.publicKey), signature: [UInt8](key.signature))
    }
}
