import Foundation

/// The long-term public identity of a device: a Curve25519 public key.
public struct IdentityKey: Sendable, Hashable {
    /// The underlying public key.
    public let publicKey: PublicKey

    /// Wraps a public key as an identity key.
    public init(publicKey: PublicKey) { self.publicKey = publicKey }

    /// Parses a serialized identity key (33 bytes, `0x05` first).
    /// - Throws: ``SignalError/invalidKey(_:)``.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws { publicKey = try PublicKey(bytes) }

    /// The 33-byte serialized form.
    public func serialize() -> Data { publicKey.serialize() }

    /// The serialized form as an array, for the protocol's own byte strings.
    var serializedBytes: [UInt8] { publicKey.serializedBytes }

    /// Whether `signature` is this identity's signature over `other` (made by
    /// ``IdentityKeyPair/signAlternateIdentity(_:)``): how a PNI identity vouches for an ACI identity, or the reverse.
    public func verifyAlternateIdentity<Bytes: ContiguousBytes>(_ other: IdentityKey, signature: Bytes) throws -> Bool {
        try publicKey.verifySignature(
            message: IdentityKeyPair.alternateIdentityDomain + other.serializedBytes, signature: signature)
    }
}
