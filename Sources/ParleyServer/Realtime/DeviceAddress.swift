/// One device of one account: the unit a mailbox and a socket belong to.
public struct DeviceAddress: Hashable, Sendable, CustomStringConvertible {
    /// The account (lowercase UUID).
    public let accountId: String
    /// The device within it.
    public let deviceId: UInt32

    /// An address.
    public init(accountId: String, deviceId: UInt32) {
        self.accountId = accountId
        self.deviceId = deviceId
    }

    /// `accountId.deviceId`.
    public var description: String { "\(accountId).\(deviceId)" }
}
