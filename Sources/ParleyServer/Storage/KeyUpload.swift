/// Prekeys whose signatures the server has checked, ready to store for one device.
public struct KeyUpload: Sendable {
    /// Replaces the device's signed prekey.
    public var signedPreKey: StoredPreKey?
    /// Added one-time prekeys.
    public var preKeys: [StoredPreKey] = []
    /// Added one-time KEM prekeys.
    public var kemPreKeys: [StoredPreKey] = []
    /// Replaces the device's last-resort KEM prekey.
    public var lastResortKemPreKey: StoredPreKey?
}
