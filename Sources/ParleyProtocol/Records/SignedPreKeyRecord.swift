import Foundation

/// The medium-term signed prekey: a Curve25519 key pair whose public half is signed by the identity key.
public struct SignedPreKeyRecord: Sendable {
    /// The signed prekey id.
    public let id: UInt32
    /// When it was made, in milliseconds since 1970.
    public let timestamp: UInt64
    let keyPair: (publicKey: PublicKey, privateKey: PrivateKey)
    let signatureBytes: [UInt8]

    /// Makes a record from its parts. `throws` keeps LibSignalClient's call shape; it throws nothing.
    public init<Bytes: ContiguousBytes>(id: UInt32, timestamp: UInt64, privateKey: PrivateKey, signature: Bytes) throws {
        self.init(checkedId: id, timestamp: timestamp, privateKey: privateKey, signature: signature.byteArray)
    }

    private init(checkedId id: UInt32, timestamp: UInt64, privateKey: PrivateKey, signature: [UInt8]) {
        self.id = id
        self.timestamp = timestamp
        self.keyPair = (privateKey.publicKey, privateKey)
        self.signatureBytes = signature
    }

    /// Makes a fresh signed prekey, signed by `identity`.
    public static func generate(id: UInt32, timestamp: UInt64, signedBy identity: PrivateKey) -> SignedPreKeyRecord {
        let privateKey = PrivateKey.generate()
        let signature = identity.signature(over: privateKey.publicKey.serializedBytes)
        return SignedPreKeyRecord(checkedId: id, timestamp: timestamp, privateKey: privateKey, signature: signature)
    }

    /// The public half. `throws` keeps LibSignalClient's call shape; the record's keys were checked when it was made.
    public func publicKey() throws -> PublicKey { keyPair.publicKey }

    /// The private half. `throws` keeps LibSignalClient's call shape.
    public func privateKey() throws -> PrivateKey { keyPair.privateKey }

    /// XEdDSA signature by the identity key over the 33-byte serialized public key.
    public var signature: Data { Data(signatureBytes) }

    /// Parses the form made by ``serialize()``.
    /// - Throws: ``SignalError/protobufError(_:)``, ``SignalError/invalidKey(_:)``.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws {
        let s: Parley_Storage_SignedPreKeyRecordStructure = try ProtobufCoding.decode(bytes.byteArray, what: "signed prekey record")
        let privateKey = try PrivateKey(s.privateKey)
        guard try PublicKey(s.publicKey) == privateKey.publicKey else {
            throw SignalError.invalidKey("signed prekey record halves do not match")
        }
        self.init(checkedId: s.id, timestamp: s.timestamp, privateKey: privateKey, signature: Array(s.signature))
    }

    /// Serializes the record.
    public func serialize() -> Data {
        var s = Parley_Storage_SignedPreKeyRecordStructure()
        s.id = id
        s.timestamp = timestamp
        s.publicKey = keyPair.publicKey.serialize()
        s.privateKey = keyPair.privateKey.serialize()
        s.signature = Data(signatureBytes)
        return ProtobufCoding.encode(s)
    }
}
