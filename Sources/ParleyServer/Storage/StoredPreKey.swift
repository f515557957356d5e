/// A stored prekey: id, serialized public key and, for signed kinds, the signature.
public struct StoredPreKey: Sendable, Equatable {
    /// The key id.
    public let keyId: UInt32
    /// The serialized public key.
    public let publicKey: [UInt8]
    /// The identity key's signature, for signed kinds.
    public let signature: [UInt8]?
}
