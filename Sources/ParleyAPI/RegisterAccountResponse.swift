/// The answer to a registration or a device link: the account id (a lowercase UUID), the device id, and the trust
/// root the server's sender certificates lead to.
public struct RegisterAccountResponse: Codable, Sendable, Equatable {
    /// The account id.
    public let accountId: String
    /// The device id of the registering (1) or linked device.
    public let deviceId: UInt32
    /// The sealed-sender trust root's public key (33 bytes, base64), for a client that does not pin one in its
    /// configuration; absent from servers older than sender certificates.
    public let sealedSenderTrustRoot: String?

    /// A registration or link result.
    public init(accountId: String, deviceId: UInt32, sealedSenderTrustRoot: String? = nil) {
        self.accountId = accountId
        self.deviceId = deviceId
        self.sealedSenderTrustRoot = sealedSenderTrustRoot
    }
}
