import Foundation

/// A KEM ("Kyber") prekey for PQXDH: an id and a KEM key pair whose public half is signed by the identity key.
public struct KyberPreKeyRecord: Sendable {
    /// The KEM prekey id (its own id space).
    public let id: UInt32
    /// When it was made, in milliseconds since 1970.
    public let timestamp: UInt64
    /// The key pair.
    public let keyPair: KEMKeyPair
    /// XEdDSA signature by the identity key over the serialized public key, type byte included.
    public let signature: [UInt8]
    /// Whether sessions set up with this prekey run the SPQR (triple) ratchet: a pre-key message naming it must
    /// carry `pq_ratchet`, and one naming a prekey without the flag must not.
    public let spqr: Bool

    /// Makes a record from its parts.
    public init<Bytes: ContiguousBytes>(id: UInt32, timestamp: UInt64, keyPair: KEMKeyPair, signature: Bytes, spqr: Bool = true) {
        self.id = id
        self.timestamp = timestamp
        self.keyPair = keyPair
        self.signature = signature.byteArray
        self.spqr = spqr
    }

    /// Makes a fresh KEM prekey of `type`, signed by `identity`; `spqr` (the default, as libsignal today) makes
    /// sessions set up with it SPQR sessions.
    public static func generate(
        type: KEMKeyType = .kyber1024, id: UInt32, timestamp: UInt64, signedBy identity: PrivateKey, spqr: Bool = true
    ) -> KyberPreKeyRecord {
        let keyPair = KEMKeyPair.generate(type: type)
        let signature = identity.generateSignature(message: keyPair.publicKey.serialize())
        return KyberPreKeyRecord(id: id, timestamp: timestamp, keyPair: keyPair, signature: signature, spqr: spqr)
    }

    /// The public half.
    public var publicKey: KEMPublicKey { keyPair.publicKey }
    /// The secret half.
    public var secretKey: KEMSecretKey { keyPair.secretKey }

    /// Parses the form made by ``serialize()``.
    /// - Throws: ``SignalError/invalidProtobuf(_:)``, ``SignalError/invalidKey(_:)``.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws {
        let s: Parley_Storage_KyberPreKeyRecordStructure = try ProtobufCoding.decode(bytes.byteArray, what: "KEM prekey record")
        let keyPair = KEMKeyPair(secretKey: try KEMSecretKey(s.secretKey))
        guard try KEMPublicKey(s.publicKey) == keyPair.publicKey else {
            throw SignalError.invalidKey("KEM prekey record halves do not match")
        }
        self.init(id: s.id, timestamp: s.timestamp, keyPair: keyPair, signature: s.signature, spqr: s.spqr)
    }

    /// Serializes the record.
    public func serialize() -> [UInt8] {
        var s = Parley_Storage_KyberPreKeyRecordStructure()
        s.id = id
        s.timestamp = timestamp
        s.publicKey = Data(publicKey.serialize())
        s.secretKey = Data(secretKey.serialize())
        s.signature = Data(signature)
        if spqr { s.spqr = true }
        return ProtobufCoding.encode(s)
    }
}
