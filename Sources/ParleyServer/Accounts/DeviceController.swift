import Crypto
import Foundation
import Hummingbird
import ParleyAPI

/// Adding devices with short-lived one-time link codes, and removing them.
struct DeviceController: Sendable {
    let store: any AccountStore & LinkingStore
    let hasher: CredentialHasher
    let limits: ServerLimits
    let rateLimiter: RateLimiter
    /// Connections to close when a device's credential changes.
    let hub: DeliveryHub
    /// Device removal.
    let directory: DeviceDirectory
    /// Push targets, forgotten when a device starts over.
    let pushTargets: PushTargetDirectory
    /// The sealed-sender trust root, told to every linked device.
    let sealedSender: SealedSenderSettings

    func addRoutes(to routes: ServerRoutes) {
        routes.device.post(RouterPath(APIRoutes.linkCode), use: issueLinkCode)
        routes.open.put(RouterPath(APIRoutes.linkDevice), use: link)
        routes.device.put(RouterPath(APIRoutes.deviceRegistration), use: resetRegistration)
        routes.device.delete(RouterPath(APIRoutes.device("{device}")), use: remove)
    }

    @Sendable func issueLinkCode(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let caller = context.device
        guard caller.device.deviceId == 1 else { throw ServerError.forbidden("only the primary device can link devices") }
        try rateLimiter.take("link-code", accountId: caller.account.id, policy: limits.rateLimits.linkCode)
        var generator = SystemRandomNumberGenerator()
        let code = Base64URL.encode((0..<24).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let expires = ServerClock.milliseconds() + limits.linkCodeLifetimeMilliseconds
        try await store.storeLinkCode(hash: Array(SHA256.hash(data: Data(code.utf8))), accountId: caller.account.id, expires: expires)
        return try JSONCoding.response(LinkCodeResponse(code: code, expiresAt: expires), status: .created)
    }

    @Sendable func link(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        try rateLimiter.take("unauthenticated", address: context.clientAddress, policy: limits.rateLimits.unauthenticatedPerAddress)
        let body = try await JSONCoding.decode(LinkDeviceRequest.self, from: request, limit: limits.smallBodyBytes)
        let password = try Credentials.validate(password: body.password, registrationId: body.registrationId, deviceName: body.deviceName)
        let codeHash = Array(SHA256.hash(data: Data(body.code.utf8)))
        let now = ServerClock.milliseconds()
        // A read first, so that unauthenticated junk codes never cost a write.
        guard try await store.isLinkCodeValid(hash: codeHash, now: now) else {
            throw ServerError.forbidden("the link code is unknown, used or expired")
        }
        let hash = hasher.hash(password)
        let outcome = try await store.linkDevice(
            codeHash: codeHash, now: now, maximumDevices: limits.devicesPerAccount
        ) { accountId, deviceId in
            StoredDevice(
                accountId: accountId, deviceId: deviceId, registrationId: body.registrationId, name: body.deviceName,
                passwordHash: hash, created: now)
        }
        switch outcome {
        case .linked(let accountId, let deviceId):
            return try JSONCoding.response(
                RegisterAccountResponse(
                    accountId: accountId, deviceId: deviceId,
                    sealedSenderTrustRoot: sealedSender.trustRoot.serialize().base64EncodedString()), status: .created)
        case .invalidCode:
            throw ServerError.forbidden("the link code is unknown, used or expired")
        case .tooManyDevices:
            throw ServerError.conflict(code: "too_many_devices", message: "the account already has \(limits.devicesPerAccount) devices")
        }
    }

    /// `PUT /v1/devices/self/registration`: the authenticated device starts over as a new installation (a restored
    /// PIN backup): a new registration id, so that senders' sessions with the old one get 410 and are rebuilt, and
    /// none of the old installation's prekeys left to hand out.
    @Sendable func resetRegistration(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let caller = context.device
        try rateLimiter.take("registration", accountId: caller.account.id, policy: limits.rateLimits.linkCode)
        let body = try await JSONCoding.decode(DeviceRegistrationRequest.self, from: request, limit: limits.smallBodyBytes)
        let password = try Credentials.validate(password: body.password, registrationId: body.registrationId, deviceName: nil)
        guard
            try await store.resetDeviceRegistration(
                accountId: caller.account.id, deviceId: caller.device.deviceId, registrationId: body.registrationId,
                passwordHash: hasher.hash(password))
        else { throw ServerError.notFound("no device \(caller.device.deviceId)") }
        // The new installation registers its own push target; the old one's must not be woken.
        try await pushTargets.forget(accountId: caller.account.id, deviceId: caller.device.deviceId)
        // The old installation's open socket ends with its credential.
        hub.disconnect(DeviceAddress(accountId: caller.account.id, deviceId: caller.device.deviceId))
        return Response(status: .noContent)
    }

    @Sendable func remove(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let caller = context.device
        guard let id = UInt32(try context.pathParameter("device")) else { throw ServerError.badRequest("device id must be a number") }
        try await directory.remove(deviceId: id, by: caller)
        return Response(status: .noContent)
    }
}
