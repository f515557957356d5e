/// The answer to a registration: the new account id (a lowercase UUID) and the first device id.
public struct RegisterAccountResponse: Codable, Sendable, Equatable {
    /// The account id.
    public let accountId: String
    /// The device id of the registering device (always 1).
    public let deviceId: UInt32

    /// A registration result.
    public init(accountId: String, deviceId: UInt32) {
        self.accountId = accountId
        self.deviceId = deviceId
    }
}
