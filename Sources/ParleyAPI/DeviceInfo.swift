/// One device of an account, as `GET /v1/devices` lists it.
public struct DeviceInfo: Codable, Sendable, Equatable {
    /// The device id.
    public let deviceId: UInt32
    /// The device's name, if it gave one.
    public let name: String?
    /// The device's registration id.
    public let registrationId: UInt32
    /// When it was added, in milliseconds since 1970.
    public let created: UInt64

    /// A device description.
    public init(deviceId: UInt32, name: String?, registrationId: UInt32, created: UInt64) {
        self.deviceId = deviceId
        self.name = name
        self.registrationId = registrationId
        self.created = created
    }
}

/// `GET /v1/devices`.
public struct DeviceListResponse: Codable, Sendable, Equatable {
    /// The account's devices, by id.
    public let devices: [DeviceInfo]

    /// A device list.
    public init(devices: [DeviceInfo]) { self.devices = devices }
}
