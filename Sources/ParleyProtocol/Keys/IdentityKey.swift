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
    public func serialize() -> [UInt8] { publicKey.serialize() }
}
