import Foundation

/// What a device authenticates with: its account, device id and secret password.
public struct DeviceCredentials: Sendable, Equatable, Codable {
    /// The account (lowercase UUID).
    public let accountId: String
    /// The device within the account.
    public let deviceId: UInt32
    /// The device's random secret (the server stores only a slow hash of it).
    public let password: String

    /// Credentials.
    public init(accountId: String, deviceId: UInt32, password: String) {
        self.accountId = accountId
        self.deviceId = deviceId
        self.password = password
    }

    /// A fresh random password: 24 bytes from the system generator, base64.
    public static func makePassword() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<24).map { _ in UInt8.random(in: 0...255, using: &generator) }).base64EncodedString()
    }

    /// The HTTP `Authorization` header value.
    public var authorization: String {
        "Basic " + Data("\(accountId).\(deviceId):\(password)".utf8).base64EncodedString()
    }
}
