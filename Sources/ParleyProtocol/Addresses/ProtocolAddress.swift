/// One device of one user: the name a session or sender key is stored under.
public struct ProtocolAddress: Sendable, Hashable, CustomStringConvertible {
    /// The user's stable identifier (an account id, a phone number, a ServiceId string).
    public let name: String
    /// The device number within that account.
    public let deviceId: UInt32

    /// Names a device. Throws nothing today; `throws` keeps libsignal's call shape (`try ProtocolAddress(...)`).
    public init(name: String, deviceId: UInt32) throws {
        self.name = name
        self.deviceId = deviceId
    }

    /// `name.deviceId`.
    public var description: String { "\(name).\(deviceId)" }
}
