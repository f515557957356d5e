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
    /// - Throws: ``SignalError/protobufError(_:)`` or ``SignalError/invalidKey(_:)``; also when the halves do not match.
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
    public func serialize() -> Data {
        var structure = Parley_Storage_IdentityKeyPairStructure()
        structure.publicKey = publicKey.serialize()
        structure.privateKey = privateKey.serialize()
        return ProtobufCoding.encode(structure)
    }

    /// The domain separator in front of an alternate identity's key when one identity signs another:
    /// 32 bytes `0xFF`, then `"Signal_PNI_Signature"` (libsignal's `identity_key.rs`).
    static let alternateIdentityDomain = [UInt8](repeating: 0xFF, count: 32) + Array("Signal_PNI_Signature".utf8)

    /// Signs another identity key with this one, as libsignal does for an account's PNI and ACI identities:
    /// XEdDSA over 32 × `0xFF` ‖ `"Signal_PNI_Signature"` ‖ the other key's serialized form. Check it with
    /// ``IdentityKey/verifyAlternateIdentity(_:signature:)``.
    public func signAlternateIdentity(_ other: IdentityKey) -> Data {
        Data(privateKey.signature(over: Self.alternateIdentityDomain + other.serializedBytes))
    }
}
