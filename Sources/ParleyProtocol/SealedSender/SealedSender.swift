import Foundation

/// The outcome of ``sealedSenderDecrypt(message:from:trustRoot:timestamp:sessionStore:identityStore:preKeyStore:signedPreKeyStore:kyberPreKeyStore:context:)``.
public struct SealedSenderResult: Sendable {
    /// The decrypted message.
    public let message: Data
    /// Who sent it, as the validated certificate says.
    public let sender: SealedSenderAddress
}

/// Seals `content` for the device at `address`: the server sees neither sender nor message.
/// The recipient's identity key comes from `identityStore`.
/// - Throws: ``SignalError/sessionNotFound(_:)`` when no identity is known for `address`.
public func sealedSenderEncrypt(
    _ content: UnidentifiedSenderMessageContent, for address: ProtocolAddress,
    identityStore: IdentityKeyStore, context: StoreContext
) throws -> Data {
    guard let recipient = try identityStore.identity(for: address, context: context) else {
        throw SignalError.sessionNotFound("no identity known for \(address)")
    }
    return Data(
        try SealedSenderEnvelope.seal(
            Array(content.serialize()), from: try identityStore.identityKeyPair(context: context), to: recipient))
}

/// Encrypts `message` on the session with `address` and seals it with `senderCertificate`.
public func sealedSenderEncrypt<Bytes: ContiguousBytes>(
    message: Bytes, for address: ProtocolAddress, from senderCertificate: SenderCertificate,
    sessionStore: SessionStore, identityStore: IdentityKeyStore, context: StoreContext
) throws -> Data {
    let ciphertext = try signalEncrypt(
        message: message, for: address, sessionStore: sessionStore, identityStore: identityStore, context: context)
    return try sealedSenderEncrypt(
        UnidentifiedSenderMessageContent(ciphertext, from: senderCertificate), for: address,
        identityStore: identityStore, context: context)
}

/// Opens a sealed-sender envelope without decrypting the inner message: the sender's certificate
/// is validated against `trustRoot` at `timestamp` and must name the identity key that sealed it.
/// - Throws: ``SignalError/invalidSealedSenderMessage(_:)``, ``SignalError/untrustedCertificate(_:)``,
///   ``SignalError/invalidCertificate(_:)``, ``SignalError/expiredCertificate(_:)``.
public func sealedSenderDecryptToUSMC<Bytes: ContiguousBytes>(
    message: Bytes, trustRoot: PublicKey, timestamp: UInt64, identityStore: IdentityKeyStore, context: StoreContext
) throws -> UnidentifiedSenderMessageContent {
    let content = try UnidentifiedSenderMessageContent(message: message, identityStore: identityStore, context: context)
    try content.senderCertificate.check(trustRoot: trustRoot, time: timestamp)
    return content
}

/// Opens a sealed-sender envelope, validates the sender's certificate, and decrypts the 1:1 message inside.
/// - Parameters:
///   - localAddress: this device, to refuse messages this device sent to itself.
///   - timestamp: when the envelope arrived, in milliseconds since 1970 (certificates must not have expired).
/// - Throws: the errors of ``sealedSenderDecryptToUSMC(message:trustRoot:timestamp:identityStore:context:)``,
///   ``SignalError/sealedSenderSelfSend(_:)``, and those of the session decryption.
public func sealedSenderDecrypt<Bytes: ContiguousBytes>(
    message: Bytes, from localAddress: SealedSenderAddress, trustRoot: PublicKey, timestamp: UInt64,
    sessionStore: SessionStore, identityStore: IdentityKeyStore, preKeyStore: PreKeyStore,
    signedPreKeyStore: SignedPreKeyStore, kyberPreKeyStore: KyberPreKeyStore, context: StoreContext
) throws -> SealedSenderResult {
    let content = try sealedSenderDecryptToUSMC(
        message: message, trustRoot: trustRoot, timestamp: timestamp, identityStore: identityStore, context: context)
    let sender = content.senderCertificate.sender
    if sender.uuidString == localAddress.uuidString && sender.deviceId == localAddress.deviceId {
        throw SignalError.sealedSenderSelfSend("\(sender.uuidString).\(sender.deviceId) is this device")
    }
    let address = try sender.protocolAddress
    let plaintext: Data
    switch content.messageType {
    case .preKey:
        plaintext = try signalDecryptPreKey(
            message: try PreKeySignalMessage(bytes: content.contents), from: address, sessionStore: sessionStore,
            identityStore: identityStore, preKeyStore: preKeyStore, signedPreKeyStore: signedPreKeyStore,
            kyberPreKeyStore: kyberPreKeyStore, context: context)
    case .whisper:
        plaintext = try signalDecrypt(
            message: try SignalMessage(bytes: content.contents), from: address, sessionStore: sessionStore,
            identityStore: identityStore, context: context)
    case .senderKey, .plaintext:
        throw SignalError.invalidSealedSenderMessage("\(content.messageType) content is decrypted by the caller (groupDecrypt)")
    }
    return SealedSenderResult(message: plaintext, sender: sender)
}
