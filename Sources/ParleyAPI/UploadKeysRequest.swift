/// `PUT /v1/keys`: the authenticated device publishes prekeys. Every part is optional;
/// what is given replaces (signed, last resort) or adds to (one-time) what the server has.
public struct UploadKeysRequest: Codable, Sendable {
    /// The medium-term signed Curve25519 prekey.
    public let signedPreKey: SignedPreKeyEntity?
    /// One-time Curve25519 prekeys (at most 100 per upload).
    public let preKeys: [PreKeyEntity]?
    /// One-time KEM prekeys (at most 100 per upload).
    public let kemPreKeys: [SignedPreKeyEntity]?
    /// The last-resort KEM prekey, handed out when one-time KEM prekeys run out.
    public let lastResortKemPreKey: SignedPreKeyEntity?

    /// An upload.
    public init(
        signedPreKey: SignedPreKeyEntity?, preKeys: [PreKeyEntity]?, kemPreKeys: [SignedPreKeyEntity]?,
        lastResortKemPreKey: SignedPreKeyEntity?
    ) {
        self.signedPreKey = signedPreKey
        self.preKeys = preKeys
        self.kemPreKeys = kemPreKeys
        self.lastResortKemPreKey = lastResortKemPreKey
    }
}

/// `GET /v1/keys/count`: how many one-time keys the server still holds for the device.
public struct PreKeyCountResponse: Codable, Sendable, Equatable {
    /// One-time Curve25519 prekeys left.
    public let count: Int
    /// One-time KEM prekeys left (the last-resort key is not counted).
    public let kemCount: Int

    /// Prekey counts.
    public init(count: Int, kemCount: Int) {
        self.count = count
        self.kemCount = kemCount
    }
}
