/// A prekey as a front door received it, decoded from its encoding but not yet checked.
struct UploadedKey: Sendable {
    /// The key id.
    let keyId: UInt32
    /// The serialized public key.
    let publicKey: [UInt8]
    /// The identity key's signature, for signed kinds.
    let signature: [UInt8]?
}

/// One device's key upload as a front door received it: ``KeyDirectory/upload(_:by:)`` checks and stores it.
struct UploadedKeys: Sendable {
    /// Replaces the device's signed prekey.
    var signedPreKey: UploadedKey?
    /// Added one-time prekeys.
    var preKeys: [UploadedKey] = []
    /// Added one-time KEM prekeys.
    var kemPreKeys: [UploadedKey] = []
    /// Replaces the device's last-resort KEM prekey.
    var lastResortKemPreKey: UploadedKey?
}
