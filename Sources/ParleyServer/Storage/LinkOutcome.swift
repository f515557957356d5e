/// The outcome of ``ServerStore/linkDevice(codeHash:now:maximumDevices:makeDevice:)``.
public enum LinkOutcome: Sendable, Equatable {
    /// The device was added with this id.
    case linked(accountId: String, deviceId: UInt32)
    /// No unexpired, unused code matches.
    case invalidCode
    /// The account already has the maximum number of devices.
    case tooManyDevices
}
