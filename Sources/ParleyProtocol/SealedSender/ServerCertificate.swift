import Foundation

/// A server's signing key, certified by the trust root that clients ship with.
public struct ServerCertificate: Sendable {
    /// The key id (lets a trust root revoke one server key).
    public let keyId: UInt32
    /// The server's signing key.
    public let publicKey: PublicKey
    /// The signed bytes (a serialized inner certificate).
    public var certificateBytes: Data { Data(signedBytes) }
    /// The trust root's XEdDSA signature over ``certificateBytes``.
    public var signatureBytes: Data { Data(signature) }
    let signedBytes: [UInt8]
    let signature: [UInt8]
    let structure: Parley_Sealed_ServerCertificate

    /// Certifies `publicKey` under `keyId`, signed by `trustRoot`. `throws` keeps LibSignalClient's call shape; it
    /// throws nothing.
    public init(keyId: UInt32, publicKey: PublicKey, trustRoot: PrivateKey) throws {
        var inner = Parley_Sealed_ServerCertificate.Certificate()
        inner.id = keyId
        inner.key = publicKey.serialize()
        let bytes: [UInt8] = ProtobufCoding.encode(inner)
        var outer = Parley_Sealed_ServerCertificate()
        outer.certificate = Data(bytes)
        outer.signature = trustRoot.generateSignature(message: bytes)
        try! self.init(structure: outer)  // fields we just set are present and well formed
    }

    /// Parses a serialized certificate.
    /// - Throws: ``SignalError/invalidCertificate(_:)`` when it does not parse or lacks a field.
    public init<Bytes: ContiguousBytes>(_ bytes: Bytes) throws {
        let outer: Parley_Sealed_ServerCertificate
        do { outer = try ProtobufCoding.decode(bytes.byteArray, what: "server certificate") } catch {
            throw SignalError.invalidCertificate("server certificate does not parse")
        }
        try self.init(structure: outer)
    }

    init(structure: Parley_Sealed_ServerCertificate) throws {
        guard structure.hasCertificate, structure.hasSignature else {
            throw SignalError.invalidCertificate("server certificate lacks its certificate or signature")
        }
        let inner: Parley_Sealed_ServerCertificate.Certificate
        do { inner = try ProtobufCoding.decode(Array(structure.certificate), what: "server certificate body") } catch {
            throw SignalError.invalidCertificate("server certificate body does not parse")
        }
        guard inner.hasID, inner.hasKey, let key = try? PublicKey(inner.key) else {
            throw SignalError.invalidCertificate("server certificate lacks a valid id or key")
        }
        self.keyId = inner.id
        self.publicKey = key
        self.signedBytes = Array(structure.certificate)
        self.signature = Array(structure.signature)
        self.structure = structure
    }

    /// The serialized certificate.
    public func serialize() -> Data { ProtobufCoding.encode(structure) }

    /// Whether `trustRoot` signed this certificate.
    public func isSigned(by trustRoot: PublicKey) -> Bool {
        (try? trustRoot.verifySignature(message: signedBytes, signature: signature)) ?? false
    }
}
