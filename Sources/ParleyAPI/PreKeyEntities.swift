/// A one-time Curve25519 prekey as uploaded and handed out (key base64, 33 bytes).
public struct PreKeyEntity: Codable, Sendable, Equatable {
    /// The prekey id.
    public let keyId: UInt32
    /// The public key, base64.
    public let publicKey: String

    /// A prekey.
    public init(keyId: UInt32, publicKey: String) {
        self.keyId = keyId
        self.publicKey = publicKey
    }
}

/// A signed prekey (Curve25519 or KEM): key and the identity key's XEdDSA signature over it, base64.
public struct SignedPreKeyEntity: Codable, Sendable, Equatable {
    /// The key id.
    public let keyId: UInt32
    /// The serialized public key, base64 (33 bytes for Curve25519, 1569 for KEM).
    public let publicKey: String
    /// XEdDSA signature by the identity key over the serialized public key, base64.
    public let signature: String

    /// A signed prekey.
    public init(keyId: UInt32, publicKey: String, signature: String) {
        self.keyId = keyId
        self.publicKey = publicKey
        self.signature = signature
    }
}
