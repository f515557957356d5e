/// `POST /v1/devices/link-code`: a one-time code with which a new device joins the account (valid 10 minutes).
public struct LinkCodeResponse: Codable, Sendable, Equatable {
    /// The code to hand to the new device (e.g. in a QR code).
    public let code: String
    /// When it stops working, in milliseconds since 1970.
    public let expiresAt: UInt64

    /// A link code.
    public init(code: String, expiresAt: UInt64) {
        self.code = code
        self.expiresAt = expiresAt
    }
}

/// `PUT /v1/devices/link`: a new device joins with a link code and its own credential and registration id.
public struct LinkDeviceRequest: Codable, Sendable {
    /// The code from ``LinkCodeResponse``.
    public let code: String
    /// The new device's registration id (1…16380).
    public let registrationId: UInt32
    /// The new device's credential: at least 16 random bytes, base64.
    public let password: String
    /// A name for the device.
    public let deviceName: String?

    /// A link request.
    public init(code: String, registrationId: UInt32, password: String, deviceName: String?) {
        self.code = code
        self.registrationId = registrationId
        self.password = password
        self.deviceName = deviceName
    }
}
