import Foundation

/// The first messages of a session (`prekey`, type 3): the session-setup data wrapped around a ``SignalMessage``.
///
/// Wire: version byte ‖ protobuf. Version 4 adds the KEM prekey id and KEM ciphertext.
public struct PreKeySignalMessage: Sendable {
    /// The protocol version (3 or 4).
    let versionByte: UInt8
    /// The sender's registration id.
    let senderRegistrationId: UInt32
    /// The recipient's one-time prekey that was used, if any.
    let oneTimePreKeyId: UInt32?
    /// The recipient's signed prekey that was used.
    public let signedPreKeyId: UInt32
    /// The recipient's KEM prekey that was used (version 4).
    public let kyberPreKeyId: UInt32?
    /// The serialized KEM ciphertext (version 4): type byte ‖ 1568 bytes.
    public let kyberCiphertext: [UInt8]?
    /// The sender's ephemeral base key.
    public let baseKey: PublicKey
    /// The sender's identity key.
    let senderIdentity: IdentityKey
    /// The wrapped message.
    public let signalMessage: SignalMessage
    let serialized: [UInt8]

    /// Parses wire bytes.
    /// - Throws: version errors, ``SignalError/protobufError(_:)``, ``SignalError/invalidKey(_:)``,
    ///   ``SignalError/invalidMessage(_:)`` when the KEM fields do not fit the version.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws {
        let raw = bytes.byteArray
        versionByte = try MessageVersion.parse(raw.first)
        let body: Parley_Wire_PreKeySignalMessage = try ProtobufCoding.decode(Array(raw.dropFirst()), what: "PreKeySignalMessage")
        guard body.hasSignedPreKeyID, body.hasBaseKey, body.hasIdentityKey, body.hasMessage else {
            throw SignalError.protobufError("PreKeySignalMessage lacks a signed prekey id, base key, identity key or message")
        }
        guard body.hasKyberPreKeyID == body.hasKyberCiphertext else {
            throw SignalError.invalidMessage("PreKeySignalMessage has only one of the KEM prekey id and ciphertext")
        }
        guard body.hasKyberPreKeyID == (versionByte == MessageVersion.pqxdh) else {
            throw SignalError.invalidMessage(
                "version \(versionByte) PreKeySignalMessage \(body.hasKyberPreKeyID ? "with" : "without") KEM fields")
        }
        senderRegistrationId = body.registrationID
        oneTimePreKeyId = body.hasPreKeyID ? body.preKeyID : nil
        signedPreKeyId = body.signedPreKeyID
        kyberPreKeyId = body.hasKyberPreKeyID ? body.kyberPreKeyID : nil
        kyberCiphertext = body.hasKyberCiphertext ? Array(body.kyberCiphertext) : nil
        baseKey = try PublicKey(body.baseKey)
        senderIdentity = try IdentityKey(bytes: body.identityKey)
        signalMessage = try SignalMessage(bytes: body.message)
        guard signalMessage.versionByte == versionByte else {
            throw SignalError.invalidMessage("inner message version \(signalMessage.versionByte) differs from \(versionByte)")
        }
        serialized = raw
    }

    /// Wraps `message` with the session-setup data.
    init(
        version: UInt8, registrationId: UInt32, preKeyId: UInt32?, signedPreKeyId: UInt32,
        kyberPreKeyId: UInt32?, kyberCiphertext: [UInt8]?, baseKey: PublicKey, identityKey: IdentityKey,
        message: SignalMessage
    ) {
        var body = Parley_Wire_PreKeySignalMessage()
        body.registrationID = registrationId
        if let preKeyId { body.preKeyID = preKeyId }
        body.signedPreKeyID = signedPreKeyId
        if let kyberPreKeyId, let kyberCiphertext {
            body.kyberPreKeyID = kyberPreKeyId
            body.kyberCiphertext = Data(kyberCiphertext)
        }
        body.baseKey = baseKey.serialize()
        body.identityKey = identityKey.serialize()
        body.message = message.serialize()
        self.versionByte = version
        self.senderRegistrationId = registrationId
        self.oneTimePreKeyId = preKeyId
        self.signedPreKeyId = signedPreKeyId
        self.kyberPreKeyId = kyberPreKeyId
        self.kyberCiphertext = kyberCiphertext
        self.baseKey = baseKey
        self.senderIdentity = identityKey
        self.signalMessage = message
        self.serialized = [MessageVersion.byte(for: version)] + ProtobufCoding.encode(body)
    }

    /// The wire bytes.
    public func serialize() -> Data { Data(serialized) }

    /// The protocol version (3 or 4). `throws` keeps LibSignalClient's call shape; the version was checked when parsed.
    public func version() throws -> UInt32 { UInt32(versionByte) }

    /// The sender's registration id. `throws` keeps LibSignalClient's call shape.
    public func registrationId() throws -> UInt32 { senderRegistrationId }

    /// The recipient's one-time prekey that was used, if any. `throws` keeps LibSignalClient's call shape.
    public func preKeyId() throws -> UInt32? { oneTimePreKeyId }

    /// The sender's identity key.
    public var identityKey: PublicKey { senderIdentity.publicKey }
}
