/// One device of one user: the name a session or sender key is stored under.
///
/// The name is usually a ``ServiceId`` string (an ACI's UUID, or `PNI:` and a UUID), as LibSignalClient's addresses
/// are; Parley also accepts any other name (an account id, a phone number) for stores keyed that way.
public struct ProtocolAddress: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The user's stable identifier (a ServiceId string, an account id, a phone number).
    public let name: String
    /// The device number within that account.
    public let deviceId: UInt32

    /// Names a device.
    ///
    /// Differs from LibSignalClient, which refuses device ids outside 1…127: Parley accepts any device id, because
    /// Signal's C library (and so the interop peers) does.
    /// - Throws: nothing today; `throws` keeps libsignal's call shape (`try ProtocolAddress(...)`).
    public init(name: String, deviceId: UInt32) throws {
        self.name = name
        self.deviceId = deviceId
    }

    /// The address of device `deviceId` of the account `serviceId` (its name is the service id string).
    public init(_ serviceId: ServiceId, deviceId: UInt32) {
        self.name = serviceId.serviceIdString
        self.deviceId = deviceId
    }

    /// The name as a ``ServiceId``, or `nil` when the name is not a service id string.
    public var serviceId: ServiceId! { try? ServiceId.parseFrom(serviceIdString: name) }

    /// `name.deviceId`.
    public var description: String { "\(name).\(deviceId)" }

    /// `name.deviceId`, with the name as a service id's log form when it is one.
    public var debugDescription: String { "\(serviceId.map(\.logString) ?? name).\(deviceId)" }
}
