import Crypto
import CryptoExtras
import Foundation

/// Sealed sender version 1: the envelope layer.
///
/// An ephemeral X25519 key agrees with the recipient's identity key to encrypt the sender's identity
/// key; the sender's and recipient's identity keys then agree to encrypt the content. Each part is
/// AES-256-CTR (zero IV, fresh keys) followed by a 10-byte truncated HMAC-SHA256.
/// Wire: `0x11` ‖ protobuf `{1 ephemeralPublic, 2 encryptedStatic, 3 encryptedMessage}`.
enum SealedSenderEnvelope {
    static let version: UInt8 = 1
    static let macLength = 10
    static let label = Array("UnidentifiedDelivery".utf8)

    struct Keys {
        let chainKey: [UInt8]
        let cipherKey: [UInt8]
        let macKey: [UInt8]

        init(agreement: [UInt8], salt: [UInt8]) {
            let derived = KDF.hkdf(inputKeyMaterial: agreement, salt: salt, info: "", count: 96)
            chainKey = Array(derived[0..<32])
            cipherKey = Array(derived[32..<64])
            macKey = Array(derived[64..<96])
        }
    }

    /// Seals `content` from `sender` (identity key pair) to the recipient identity `recipient`.
    static func seal(_ content: [UInt8], from sender: IdentityKeyPair, to recipient: IdentityKey) throws -> [UInt8] {
        let ephemeral = PrivateKey.generate()
        let ephemeralKeys = Keys(
            agreement: try ephemeral.agreement(with: recipient.publicKey),
            salt: label + recipient.serializedBytes + ephemeral.publicKey.serializedBytes)
        let encryptedStatic = try encrypt(sender.publicKey.serializedBytes, keys: ephemeralKeys)
        let staticKeys = Keys(
            agreement: try sender.privateKey.agreement(with: recipient.publicKey),
            salt: ephemeralKeys.chainKey + encryptedStatic)
        var envelope = Parley_Sealed_UnidentifiedSenderMessage()
        envelope.ephemeralPublic = ephemeral.publicKey.serialize()
        envelope.encryptedStatic = Data(encryptedStatic)
        envelope.encryptedMessage = Data(try encrypt(content, keys: staticKeys))
        return [(version << 4) | version] + ProtobufCoding.encode(envelope)
    }

    /// Opens an envelope addressed to `recipient`; returns the sender's identity key and the content.
    /// - Throws: ``SignalError/invalidSealedSenderMessage(_:)`` for a malformed envelope or a failed MAC;
    ///   ``SignalError/unrecognizedMessageVersion(_:)`` for an envelope version other than 1.
    static func open(_ bytes: [UInt8], recipient: IdentityKeyPair) throws -> (sender: PublicKey, content: [UInt8]) {
        guard let first = bytes.first else { throw SignalError.invalidSealedSenderMessage("empty envelope") }
        guard first >> 4 == version else {
            throw SignalError.unrecognizedMessageVersion("sealed sender version \(first >> 4)")
        }
        let envelope: Parley_Sealed_UnidentifiedSenderMessage
        do { envelope = try ProtobufCoding.decode(Array(bytes.dropFirst()), what: "sealed sender envelope") } catch {
            throw SignalError.invalidSealedSenderMessage("envelope does not parse")
        }
        guard envelope.hasEphemeralPublic, envelope.hasEncryptedStatic, envelope.hasEncryptedMessage,
            let ephemeral = try? PublicKey(envelope.ephemeralPublic)
        else { throw SignalError.invalidSealedSenderMessage("envelope lacks a field or has a bad ephemeral key") }
        let encryptedStatic = Array(envelope.encryptedStatic)
        let ephemeralKeys = Keys(
            agreement: try agreement(recipient.privateKey, ephemeral),
            salt: label + recipient.publicKey.serialize() + ephemeral.serialize())
        let sender: PublicKey
        do { sender = try PublicKey(try decrypt(encryptedStatic, keys: ephemeralKeys)) } catch let error as SignalError {
            if case .invalidSealedSenderMessage = error { throw error }
            throw SignalError.invalidSealedSenderMessage("sender key is malformed")
        }
        let staticKeys = Keys(
            agreement: try agreement(recipient.privateKey, sender), salt: ephemeralKeys.chainKey + encryptedStatic)
        return (sender, try decrypt(Array(envelope.encryptedMessage), keys: staticKeys))
    }

    /// X25519 with a key from the envelope; a low-order key makes the envelope invalid.
    private static func agreement(_ ours: PrivateKey, _ theirs: PublicKey) throws -> [UInt8] {
        do { return try ours.agreement(with: theirs) } catch {
            throw SignalError.invalidSealedSenderMessage("the envelope carries a low-order key")
        }
    }

    private static func encrypt(_ plaintext: [UInt8], keys: Keys) throws -> [UInt8] {
        let ciphertext = try ctr(plaintext, key: keys.cipherKey)
        return ciphertext + KDF.hmacSHA256(key: keys.macKey, ciphertext).prefix(macLength)
    }

    private static func decrypt(_ sealed: [UInt8], keys: Keys) throws -> [UInt8] {
        guard sealed.count >= macLength else { throw SignalError.invalidSealedSenderMessage("ciphertext too short") }
        let ciphertext = Array(sealed.dropLast(macLength))
        let expected = KDF.hmacSHA256(key: keys.macKey, ciphertext).prefix(macLength)
        guard ConstantTime.equals(expected, sealed.suffix(macLength)) else {
            throw SignalError.invalidSealedSenderMessage("MAC does not match")
        }
        return try ctr(ciphertext, key: keys.cipherKey)
    }

    /// AES-256-CTR with a zero initial counter block (swift-crypto); the keys are never reused.
    private static func ctr(_ input: [UInt8], key: [UInt8]) throws -> [UInt8] {
        do {
            let nonce = try AES._CTR.Nonce(nonceBytes: [UInt8](repeating: 0, count: 16))
            return Array(try AES._CTR.encrypt(input, using: SymmetricKey(data: key), nonce: nonce))
        } catch {
            throw SignalError.internalError("AES-CTR failed: \(error)")
        }
    }
}
