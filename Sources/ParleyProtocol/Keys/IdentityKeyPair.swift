import Foundation
import SwiftProtobuf

/// A device's identity key pair.
public struct IdentityKeyPair: Sendable {
    /// The public half.
    public let publicKey: PublicKey
    /// The private half.
    public let privateKey: PrivateKey

    /// A fresh random identity.
    public static func generate() -> IdentityKeyPair {
        let privateKey = PrivateKey.generate()
        return IdentityKeyPair(publicKey: privateKey.publicKey, privateKey: privateKey)
    }

    /// Pairs two keys; the caller vouches that they match.
    public init(publicKey: PublicKey, privateKey: PrivateKey) {
        self.publicKey = publicKey
        self.privateKey = privateKey
    }

    /// Parses the serialized form made by ``serialize()``.
    /// - Throws: ``SignalError/invalidProtobuf(_:)`` or ``SignalError/invalidKey(_:)``; also when the halves do not match.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws {
        let structure: Parley_Storage_IdentityKeyPairStructure = try ProtobufCoding.decode(bytes.byteArray, what: "identity key pair")
        let privateKey = try PrivateKey(structure.privateKey)
        let publicKey = try PublicKey(structure.publicKey)
        guard privateKey.publicKey == publicKey else {
            throw SignalError.invalidKey("identity public key does not match its private key")
        }
        self.init(publicKey: publicKey, privateKey: privateKey)
    }

    /// The public half as an identity key.
    public var identityKey: IdentityKey { IdentityKey(publicKey: publicKey) }

    /// Serializes both halves (protobuf `{1 public, 2 private}`, as libsignal does).
    public func serialize() -> [UInt8] {
        var structure = Parley_Storage_IdentityKeyPairStructure()
        structure.publicKey = Data(publicKey.serialize())
        structure.privateKey = Data(privateKey.serialize())
        return ProtobufCoding.encode(structure)
    }

    /// Signs another identity key with this one (used when linking devices); XEdDSA over its serialized form.
    public func signAlternateIdentity(_ other: IdentityKey) -> [UInt8] {
        privateKey.generateSignature(message: other.serialize())
    }
}
