/// The keys handed out for one device; the one-time keys in it were removed from storage in the same transaction.
public struct ClaimedBundle: Sendable {
    /// The device.
    public let device: StoredDevice
    /// Its signed prekey.
    public let signedPreKey: StoredPreKey
    /// The claimed one-time prekey, if any were left.
    public let preKey: StoredPreKey?
    /// The claimed one-time KEM prekey, else the last-resort one, if the device has any.
    public let kemPreKey: StoredPreKey?
}
