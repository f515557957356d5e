import Foundation
import Hummingbird

/// The device a request is authenticated as.
struct AuthenticatedDevice: Sendable {
    let account: StoredAccount
    let device: StoredDevice
}

/// HTTP Basic authentication per device: user `<accountId>.<deviceId>`, password the device credential.
struct DeviceAuthenticator: Sendable {
    let store: any ServerStore
    let hasher: PasswordHasher

    /// The authenticated device, or ``ServerError/unauthorized``.
    func authenticate(_ request: Request) async throws -> AuthenticatedDevice {
        guard let header = request.headers[.authorization], header.hasPrefix("Basic "),
              let decoded = Data(base64Encoded: String(header.dropFirst(6))),
              let text = String(data: decoded, encoding: .utf8),
              let colon = text.firstIndex(of: ":")
        else { throw ServerError.unauthorized }
        let user = text[..<colon]
        let password = Array(text[text.index(after: colon)...].utf8)
        guard let dot = user.lastIndex(of: "."), let deviceId = UInt32(user[user.index(after: dot)...]) else {
            throw ServerError.unauthorized
        }
        let accountId = String(user[..<dot])
        guard accountId.count <= 64, let (account, devices) = try await store.accountWithDevices(id: accountId),
              let device = devices.first(where: { $0.deviceId == deviceId }),
              hasher.verify(password, against: device.passwordHash)
        else { throw ServerError.unauthorized }
        return AuthenticatedDevice(account: account, device: device)
    }
}
