import Foundation

/// A short-lived statement by the server: "this identity key belongs to this account and device
/// until this time". Sealed-sender recipients check it instead of seeing who connected.
public struct SenderCertificate: Sendable {
    /// The sender it names.
    public let sender: SealedSenderAddress
    /// The sender's identity key.
    public let publicKey: PublicKey
    /// Expiry, in milliseconds since 1970.
    public let expiration: UInt64
    /// The server certificate whose key signed this one.
    public let serverCertificate: ServerCertificate
    /// The signed bytes.
    public let certificateBytes: [UInt8]
    /// The server key's signature over ``certificateBytes``.
    public let signatureBytes: [UInt8]
    let structure: Parley_Sealed_SenderCertificate

    /// Issues a certificate for `sender` with identity `publicKey`, signed by the server key `signerKey`.
    public init(
        sender: SealedSenderAddress, publicKey: PublicKey, expiration: UInt64,
        signerCertificate: ServerCertificate, signerKey: PrivateKey
    ) {
        var inner = Parley_Sealed_SenderCertificate.Certificate()
        if let e164 = sender.e164 { inner.senderE164 = e164 }
        inner.senderUuid = sender.uuidString
        inner.senderDevice = sender.deviceId
        inner.expires = expiration
        inner.identityKey = Data(publicKey.serialize())
        inner.signer = signerCertificate.structure
        let bytes: [UInt8] = ProtobufCoding.encode(inner)
        var outer = Parley_Sealed_SenderCertificate()
        outer.certificate = Data(bytes)
        outer.signature = Data(signerKey.generateSignature(message: bytes))
        try! self.init(structure: outer)  // fields we just set are present and well formed
    }

    /// Parses a serialized certificate.
    /// - Throws: ``SignalError/invalidCertificate(_:)`` when it does not parse or lacks a field.
    public init<Bytes: ContiguousBytes>(_ bytes: Bytes) throws {
        let outer: Parley_Sealed_SenderCertificate
        do { outer = try ProtobufCoding.decode(bytes.byteArray, what: "sender certificate") } catch {
            throw SignalError.invalidCertificate("sender certificate does not parse")
        }
        try self.init(structure: outer)
    }

    init(structure: Parley_Sealed_SenderCertificate) throws {
        guard structure.hasCertificate, structure.hasSignature else {
            throw SignalError.invalidCertificate("sender certificate lacks its certificate or signature")
        }
        let inner: Parley_Sealed_SenderCertificate.Certificate
        do { inner = try ProtobufCoding.decode(Array(structure.certificate), what: "sender certificate body") } catch {
            throw SignalError.invalidCertificate("sender certificate body does not parse")
        }
        guard inner.hasSenderUuid, inner.hasSenderDevice, inner.hasExpires, inner.hasIdentityKey, inner.hasSigner,
              let key = try? PublicKey(inner.identityKey)
        else { throw SignalError.invalidCertificate("sender certificate lacks a sender, device, expiry, key or signer") }
        self.sender = try SealedSenderAddress(
            e164: inner.hasSenderE164 ? inner.senderE164 : nil, uuidString: inner.senderUuid, deviceId: inner.senderDevice)
        self.publicKey = key
        self.expiration = inner.expires
        self.serverCertificate = try ServerCertificate(structure: inner.signer)
        self.certificateBytes = Array(structure.certificate)
        self.signatureBytes = Array(structure.signature)
        self.structure = structure
    }

    /// The serialized certificate.
    public func serialize() -> Data { ProtobufCoding.encode(structure) }

    /// Checks the chain and the expiry at `time` (milliseconds since 1970).
    /// - Throws: ``SignalError/untrustedCertificate(_:)`` when the server certificate is not signed by `trustRoot`;
    ///   ``SignalError/invalidCertificate(_:)`` when this certificate is not signed by the server key;
    ///   ``SignalError/expiredCertificate(_:)`` when `time` is past the expiry.
    public func validate(trustRoot: PublicKey, time: UInt64) throws {
        guard serverCertificate.isSigned(by: trustRoot) else {
            throw SignalError.untrustedCertificate("server certificate \(serverCertificate.keyId) is not signed by the trust root")
        }
        guard (try? serverCertificate.publicKey.verifySignature(message: certificateBytes, signature: signatureBytes)) == true else {
            throw SignalError.invalidCertificate("sender certificate of \(sender) is not signed by server key \(serverCertificate.keyId)")
        }
        guard time <= expiration else {
            throw SignalError.expiredCertificate("certificate of \(sender) expired at \(expiration), checked at \(time)")
        }
    }
}
