/// Envelopes one device acknowledged: the store deletes those of `guids` that are in that device's mailbox (a guid of
/// another device's envelope deletes nothing).
public struct DeviceAcknowledgements: Sendable, Equatable {
    /// The acknowledging device's account.
    public let accountId: String
    /// The acknowledging device.
    public let deviceId: UInt32
    /// The envelopes it acknowledged.
    public let guids: [String]

    /// Acknowledgements of `guids` by device `deviceId` of `accountId`.
    public init(accountId: String, deviceId: UInt32, guids: [String]) {
        self.accountId = accountId
        self.deviceId = deviceId
        self.guids = guids
    }
}
