import Foundation
import Hummingbird

/// The device a request is authenticated as.
struct AuthenticatedDevice: Sendable {
    let account: StoredAccount
    let device: StoredDevice
}

/// HTTP Basic authentication per device: user `<accountId>.<deviceId>`, password the device credential.
struct DeviceAuthenticator: Sendable {
    let store: any AccountStore
    let hasher: CredentialHasher

    /// The authenticated device, or ``ServerError/unauthorized`` (``ServerError/tooManyRequests(retryAfterSeconds:)``
    /// while a legacy credential cannot be checked yet).
    func authenticate(_ request: Request) async throws -> AuthenticatedDevice {
        try await authenticate(authorization: request.headers[.authorization])
    }

    /// The device an `Authorization: Basic …` value names, if its credential is right (REST headers, gRPC metadata).
    func authenticate(authorization: String?) async throws -> AuthenticatedDevice {
        guard let header = authorization, header.utf8.count <= 1024, header.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6))),
            let text = String(data: decoded, encoding: .utf8),
            let colon = text.firstIndex(of: ":")
        else { throw ServerError.unauthorized }
        let user = text[..<colon]
        let password = Array(text[text.index(after: colon)...].utf8)
        guard let dot = user.lastIndex(of: "."), let deviceId = UInt32(user[user.index(after: dot)...]) else {
            throw ServerError.unauthorized
        }
        return try await authenticate(accountId: String(user[..<dot]), deviceId: deviceId, credential: password)
    }

    /// The device `accountId.deviceId` if `credential` is its credential.
    func authenticate(accountId: String, deviceId: UInt32, credential: [UInt8]) async throws -> AuthenticatedDevice {
        guard accountId.utf8.count <= 64, !accountId.containsControlCharacter, credential.count <= 512,
            let (account, devices) = try await store.accountWithDevices(id: accountId),
            var device = devices.first(where: { $0.deviceId == deviceId })
        else { throw ServerError.unauthorized }
        switch hasher.verify(credential, against: device.passwordHash) {
        case .valid:
            break
        case .validNeedsRehash(let fastHash):
            // Only if no reset replaced the credential meanwhile.
            if try await store.replaceDeviceCredentialHash(
                accountId: account.id, deviceId: deviceId, from: device.passwordHash, to: fastHash)
            {
                // What the device is now stored with (a socket is later checked against it: DeliveryHub.closeRevoked).
                device = StoredDevice(
                    accountId: device.accountId, deviceId: device.deviceId, registrationId: device.registrationId,
                    name: device.name, passwordHash: fastHash, created: device.created)
            } else if let current = try await store.accountWithDevices(id: accountId)?.devices.first(where: { $0.deviceId == deviceId }),
                case .valid = hasher.verify(credential, against: current.passwordHash)
            {
                // Another sign-in with the same credential re-hashed it first: the device is stored with its hash now,
                // and a socket checked against the old one would be closed as revoked.
                device = current
            }
        case .invalid:
            throw ServerError.unauthorized
        case .busy:
            throw ServerError.tooManyRequests(retryAfterSeconds: 1)
        }
        // Only a device that proved its credential learns that its account is disabled.
        guard !account.disabled else { throw ServerError.forbidden("this account has been disabled by the server's operator") }
        return AuthenticatedDevice(account: account, device: device)
    }

    /// Whether `device`'s sign-in still stands, read from the store now: the device is there with the credential hash
    /// it signed in with, and the account is not disabled. A socket asks once it is subscribed to the hub: a revocation
    /// that landed between the upgrade's sign-in and the subscription found no connection to close.
    func signInStands(_ device: AuthenticatedDevice) async throws -> Bool {
        DeliveryHub.signInStands(
            deviceId: device.device.deviceId, credential: device.device.passwordHash,
            in: try await store.accountWithDevices(id: device.account.id))
    }
}
