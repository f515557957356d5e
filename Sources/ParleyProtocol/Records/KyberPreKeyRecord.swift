import Foundation

/// A KEM ("Kyber") prekey for PQXDH: an id and a KEM key pair whose public half is signed by the identity key.
public struct KyberPreKeyRecord: Sendable {
    /// The KEM prekey id (its own id space).
    public let id: UInt32
    /// When it was made, in milliseconds since 1970.
    public let timestamp: UInt64
    let pair: KEMKeyPair
    let signatureBytes: [UInt8]
    /// Whether sessions set up with this prekey run the SPQR (triple) ratchet: a pre-key message naming it must
    /// carry `pq_ratchet`, and one naming a prekey without the flag must not.
    public let spqr: Bool

    /// Makes a record from its parts (SPQR on, as libsignal today). `throws` keeps LibSignalClient's call shape;
    /// it throws nothing.
    public init<Bytes: ContiguousBytes>(id: UInt32, timestamp: UInt64, keyPair: KEMKeyPair, signature: Bytes) throws {
        self.init(checkedId: id, timestamp: timestamp, keyPair: keyPair, signature: signature.byteArray, spqr: true)
    }

    /// Makes a record from its parts, saying whether sessions set up with it run SPQR.
    public init<Bytes: ContiguousBytes>(id: UInt32, timestamp: UInt64, keyPair: KEMKeyPair, signature: Bytes, spqr: Bool) {
        self.init(checkedId: id, timestamp: timestamp, keyPair: keyPair, signature: signature.byteArray, spqr: spqr)
    }

    private init(checkedId id: UInt32, timestamp: UInt64, keyPair: KEMKeyPair, signature: [UInt8], spqr: Bool) {
        self.id = id
        self.timestamp = timestamp
        self.pair = keyPair
        self.signatureBytes = signature
        self.spqr = spqr
    }

    /// Makes a fresh KEM prekey of `type`, signed by `identity`; `spqr` (the default, as libsignal today) makes
    /// sessions set up with it SPQR sessions.
    public static func generate(
        type: KEMKeyType = .kyber1024, id: UInt32, timestamp: UInt64, signedBy identity: PrivateKey, spqr: Bool = true
    ) -> KyberPreKeyRecord {
        let keyPair = KEMKeyPair.generate(type: type)
        let signature = identity.signature(over: keyPair.publicKey.serializedBytes)
        return KyberPreKeyRecord(checkedId: id, timestamp: timestamp, keyPair: keyPair, signature: signature, spqr: spqr)
    }

    /// The key pair. `throws` keeps LibSignalClient's call shape; the record's keys were checked when it was made.
    public func keyPair() throws -> KEMKeyPair { pair }
    /// The public half. `throws` keeps LibSignalClient's call shape.
    public func publicKey() throws -> KEMPublicKey { pair.publicKey }
    /// The secret half. `throws` keeps LibSignalClient's call shape.
    public func secretKey() throws -> KEMSecretKey { pair.secretKey }

    /// XEdDSA signature by the identity key over the serialized public key, type byte included.
    public var signature: Data { Data(signatureBytes) }

    /// Parses the form made by ``serialize()``.
    /// - Throws: ``SignalError/protobufError(_:)``, ``SignalError/invalidKey(_:)``.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws {
        let s: Parley_Storage_KyberPreKeyRecordStructure = try ProtobufCoding.decode(bytes.byteArray, what: "KEM prekey record")
        let keyPair = KEMKeyPair(secretKey: try KEMSecretKey(s.secretKey))
        guard try KEMPublicKey(s.publicKey) == keyPair.publicKey else {
            throw SignalError.invalidKey("KEM prekey record halves do not match")
        }
        self.init(checkedId: s.id, timestamp: s.timestamp, keyPair: keyPair, signature: Array(s.signature), spqr: s.spqr)
    }

    /// Serializes the record.
    public func serialize() -> Data {
        var s = Parley_Storage_KyberPreKeyRecordStructure()
        s.id = id
        s.timestamp = timestamp
        s.publicKey = pair.publicKey.serialize()
        s.secretKey = pair.secretKey.serialize()
        s.signature = Data(signatureBytes)
        if spqr { s.spqr = true }
        return ProtobufCoding.encode(s)
    }
}
