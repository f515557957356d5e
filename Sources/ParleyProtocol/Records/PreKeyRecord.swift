import Foundation

/// A one-time prekey: an id and a Curve25519 key pair, used once by the first message that names it.
public struct PreKeyRecord: Sendable {
    /// The prekey id (as published in bundles).
    public let id: UInt32
    let keyPair: (publicKey: PublicKey, privateKey: PrivateKey)

    /// Makes a record from a key pair. `throws` keeps LibSignalClient's call shape; it throws nothing.
    public init(id: UInt32, publicKey: PublicKey, privateKey: PrivateKey) throws {
        self.init(checkedId: id, publicKey: publicKey, privateKey: privateKey)
    }

    /// Makes a record from a private key (its public half derived). `throws` keeps LibSignalClient's call shape.
    public init(id: UInt32, privateKey: PrivateKey) throws {
        self.init(checkedId: id, publicKey: privateKey.publicKey, privateKey: privateKey)
    }

    private init(checkedId id: UInt32, publicKey: PublicKey, privateKey: PrivateKey) {
        self.id = id
        self.keyPair = (publicKey, privateKey)
    }

    /// Makes a record with a fresh key pair.
    public static func generate(id: UInt32) -> PreKeyRecord {
        let privateKey = PrivateKey.generate()
        return PreKeyRecord(checkedId: id, publicKey: privateKey.publicKey, privateKey: privateKey)
    }

    /// The public half. `throws` keeps LibSignalClient's call shape; the record's keys were checked when it was made.
    public func publicKey() throws -> PublicKey { keyPair.publicKey }

    /// The private half. `throws` keeps LibSignalClient's call shape.
    public func privateKey() throws -> PrivateKey { keyPair.privateKey }

    /// Parses the form made by ``serialize()``.
    /// - Throws: ``SignalError/protobufError(_:)``, ``SignalError/invalidKey(_:)``.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws {
        let s: Parley_Storage_PreKeyRecordStructure = try ProtobufCoding.decode(bytes.byteArray, what: "prekey record")
        self.init(checkedId: s.id, publicKey: try PublicKey(s.publicKey), privateKey: try PrivateKey(s.privateKey))
    }

    /// Serializes the record.
    public func serialize() -> Data {
        var s = Parley_Storage_PreKeyRecordStructure()
        s.id = id
        s.publicKey = keyPair.publicKey.serialize()
        s.privateKey = keyPair.privateKey.serialize()
        return ProtobufCoding.encode(s)
    }
}
