/// A device as stored.
public struct StoredDevice: Sendable, Equatable {
    /// The account it belongs to.
    public let accountId: String
    /// The device id within the account.
    public let deviceId: UInt32
    /// The device's registration id.
    public let registrationId: UInt32
    /// The name the device gave, if any.
    public let name: String?
    /// The stored hash of the device credential (`hmac-sha256$salt$mac`, or a legacy Argon2id string).
    public let passwordHash: String
    /// Milliseconds since 1970.
    public let created: UInt64
}
