/// Who sent a sealed-sender message, as its sender certificate says.
public struct SealedSenderAddress: Sendable, Hashable, CustomStringConvertible {
    /// The sender's phone number, if the certificate carries one.
    public let e164: String?
    /// The sender's account id (ServiceId string).
    public let uuidString: String
    /// The sender's device.
    public let deviceId: UInt32

    /// An address; `uuidString` is the account id.
    public init(e164: String?, uuidString: String, deviceId: UInt32) throws {
        self.e164 = e164
        self.uuidString = uuidString
        self.deviceId = deviceId
    }

    /// The address of device `deviceId` of the account `aci`.
    public init(e164: String? = nil, aci: Aci, deviceId: UInt32) throws {
        try self.init(e164: e164, uuidString: aci.serviceIdString, deviceId: deviceId)
    }

    /// The sender's ACI, or `nil` when ``uuidString`` is not one.
    public var senderAci: Aci! { try? Aci.parseFrom(serviceIdString: uuidString) }

    /// The same device as a ``ProtocolAddress`` (account id and device).
    public var protocolAddress: ProtocolAddress {
        get throws { try ProtocolAddress(name: uuidString, deviceId: deviceId) }
    }

    /// `uuid.device`.
    public var description: String { "\(uuidString).\(deviceId)" }
}
