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
    public var certificateBytes: Data { Data(signedBytes) }
    /// The server key's signature over ``certificateBytes``.
    public var signatureBytes: Data { Data(signature) }
    let signedBytes: [UInt8]
    let signature: [UInt8]

    /// The sender's device.
    public var deviceId: UInt32 { sender.deviceId }
    /// The sender's account id as written in the certificate (an ACI string).
    public var senderUuid: String { sender.uuidString }
    /// The sender's ACI, or `nil` when the certificate's account id is not one.
    public var senderAci: Aci! { sender.senderAci }
    /// The sender's phone number, when the certificate carries one.
    public var senderE164: String? { sender.e164 }
    let structure: Parley_Sealed_SenderCertificate

    /// Issues a certificate for `sender` with identity `publicKey`, signed by the server key `signerKey`. `throws`
    /// keeps LibSignalClient's call shape; it throws nothing.
    public init(
        sender: SealedSenderAddress, publicKey: PublicKey, expiration: UInt64,
        signerCertificate: ServerCertificate, signerKey: PrivateKey
    ) throws {
        var inner = Parley_Sealed_SenderCertificate.Certificate()
        if let e164 = sender.e164 { inner.senderE164 = e164 }
        inner.senderUuid = sender.uuidString
        inner.senderDevice = sender.deviceId
        inner.expires = expiration
        inner.identityKey = publicKey.serialize()
        inner.signer = signerCertificate.structure
        let bytes: [UInt8] = ProtobufCoding.encode(inner)
        var outer = Parley_Sealed_SenderCertificate()
        outer.certificate = Data(bytes)
        outer.signature = signerKey.generateSignature(message: bytes)
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
        self.signedBytes = Array(structure.certificate)
        self.signature = Array(structure.signature)
        self.structure = structure
    }

    /// The serialized certificate.
    public func serialize() -> Data { ProtobufCoding.encode(structure) }

    /// Whether the chain leads to `trustRoot` and the certificate has not expired at `time` (milliseconds since 1970).
    public func validate(trustRoot: PublicKey, time: UInt64) -> Bool {
        (try? check(trustRoot: trustRoot, time: time)) != nil
    }

    /// Whether the chain leads to one of `trustRoots` (a client that trusts an old and a new root during a rotation)
    /// and the certificate has not expired at `time`.
    public func validate(trustRoots: [PublicKey], time: UInt64) -> Bool {
        trustRoots.contains { validate(trustRoot: $0, time: time) }
    }

    /// ``validate(trustRoot:time:)`` that says what is wrong (Parley's extension).
    /// - Throws: ``SignalError/untrustedCertificate(_:)`` when the server certificate is not signed by `trustRoot`;
    ///   ``SignalError/invalidCertificate(_:)`` when this certificate is not signed by the server key;
    ///   ``SignalError/expiredCertificate(_:)`` when `time` is past the expiry.
    public func check(trustRoot: PublicKey, time: UInt64) throws {
        guard serverCertificate.isSigned(by: trustRoot) else {
            throw SignalError.untrustedCertificate("server certificate \(serverCertificate.keyId) is not signed by the trust root")
        }
        guard (try? serverCertificate.publicKey.verifySignature(message: signedBytes, signature: signature)) == true else {
            throw SignalError.invalidCertificate("sender certificate of \(sender) is not signed by server key \(serverCertificate.keyId)")
        }
        guard time <= expiration else {
            throw SignalError.expiredCertificate("certificate of \(sender) expired at \(expiration), checked at \(time)")
        }
    }
}
