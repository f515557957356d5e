import Foundation

/// A one-time prekey: an id and a Curve25519 key pair, used once by the first message that names it.
public struct PreKeyRecord: Sendable {
    /// The prekey id (as published in bundles).
    public let id: UInt32
    /// The public half.
    public let publicKey: PublicKey
    /// The private half.
    public let privateKey: PrivateKey

    /// Makes a record from a key pair.
    public init(id: UInt32, publicKey: PublicKey, privateKey: PrivateKey) {
        self.id = id
        self.publicKey = publicKey
        self.privateKey = privateKey
    }

    /// Makes a record with a fresh key pair.
    public init(id: UInt32, privateKey: PrivateKey = .generate()) {
        self.init(id: id, publicKey: privateKey.publicKey, privateKey: privateKey)
    }

    /// Parses the form made by ``serialize()``.
    /// - Throws: ``SignalError/invalidProtobuf(_:)``, ``SignalError/invalidKey(_:)``.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws {
        let s: Parley_Storage_PreKeyRecordStructure = try ProtobufCoding.decode(bytes.byteArray, what: "prekey record")
        self.init(id: s.id, publicKey: try PublicKey(s.publicKey), privateKey: try PrivateKey(s.privateKey))
    }

    /// Serializes the record.
    public func serialize() -> [UInt8] {
        var s = Parley_Storage_PreKeyRecordStructure()
        s.id = id
        s.publicKey = Data(publicKey.serialize())
        s.privateKey = Data(privateKey.serialize())
        return ProtobufCoding.encode(s)
    }
}
