/// `GET /v1/keys/{accountId}/{deviceId}` (or `*` for every device): what a sender needs to start sessions.
public struct PreKeyBundleResponse: Codable, Sendable, Equatable {
    /// The account's identity key, base64.
    public let identityKey: String
    /// One bundle per device.
    public let devices: [DeviceBundle]

    /// A bundle response.
    public init(identityKey: String, devices: [DeviceBundle]) {
        self.identityKey = identityKey
        self.devices = devices
    }
}

/// The keys of one device; a one-time prekey was claimed for this request and will not be handed out again.
public struct DeviceBundle: Codable, Sendable, Equatable {
    /// The device id.
    public let deviceId: UInt32
    /// The device's registration id.
    public let registrationId: UInt32
    /// The signed prekey.
    public let signedPreKey: SignedPreKeyEntity
    /// A one-time prekey, when any were left.
    public let preKey: PreKeyEntity?
    /// A one-time KEM prekey, else the last-resort one, when the device uploaded any.
    public let kemPreKey: SignedPreKeyEntity?

    /// A device's bundle.
    public init(
        deviceId: UInt32, registrationId: UInt32, signedPreKey: SignedPreKeyEntity, preKey: PreKeyEntity?,
        kemPreKey: SignedPreKeyEntity?
    ) {
        self.deviceId = deviceId
        self.registrationId = registrationId
        self.signedPreKey = signedPreKey
        self.preKey = preKey
        self.kemPreKey = kemPreKey
    }
}
