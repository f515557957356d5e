import Foundation

/// The medium-term signed prekey: a Curve25519 key pair whose public half is signed by the identity key.
public struct SignedPreKeyRecord: Sendable {
    /// The signed prekey id.
    public let id: UInt32
    /// When it was made, in milliseconds since 1970.
    public let timestamp: UInt64
    /// The public half.
    public let publicKey: PublicKey
    /// The private half.
    public let privateKey: PrivateKey
    /// XEdDSA signature by the identity key over the 33-byte serialized public key.
    public let signature: [UInt8]

    /// Makes a record from its parts.
    public init<Bytes: ContiguousBytes>(id: UInt32, timestamp: UInt64, privateKey: PrivateKey, signature: Bytes) {
        self.id = id
        self.timestamp = timestamp
        self.publicKey = privateKey.publicKey
        self.privateKey = privateKey
        self.signature = signature.byteArray
    }

    /// Makes a fresh signed prekey, signed by `identity`.
    public static func generate(id: UInt32, timestamp: UInt64, signedBy identity: PrivateKey) -> SignedPreKeyRecord {
        let privateKey = PrivateKey.generate()
        let signature = identity.generateSignature(message: privateKey.publicKey.serialize())
        return SignedPreKeyRecord(id: id, timestamp: timestamp, privateKey: privateKey, signature: signature)
    }

    /// Parses the form made by ``serialize()``.
    /// - Throws: ``SignalError/invalidProtobuf(_:)``, ``SignalError/invalidKey(_:)``.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws {
        let s: Parley_Storage_SignedPreKeyRecordStructure = try ProtobufCoding.decode(bytes.byteArray, what: "signed prekey record")
        let privateKey = try PrivateKey(s.privateKey)
        guard try PublicKey(s.publicKey) == privateKey.publicKey else {
            throw SignalError.invalidKey("signed prekey record halves do not match")
        }
        self.init(id: s.id, timestamp: s.timestamp, privateKey: privateKey, signature: s.signature)
    }

    /// Serializes the record.
    public func serialize() -> [UInt8] {
        var s = Parley_Storage_SignedPreKeyRecordStructure()
        s.id = id
        s.timestamp = timestamp
        s.publicKey = Data(publicKey.serialize())
        s.privateKey = Data(privateKey.serialize())
        s.signature = Data(signature)
        return ProtobufCoding.encode(s)
    }
}
