import Crypto
import CryptoExtras
import Foundation

/// Sealed sender version 2 (multi-recipient), the cryptography: one random 32-byte `M` per message gives the
/// ephemeral key pair `E` and the content key `K`; each recipient gets `M` encrypted to its identity key (`C_i`) and
/// an authentication tag binding the sender's identity key (`AT_i`); the content is encrypted once with
/// AES-256-GCM-SIV under `K` (zero nonce: `K` is never reused). Labels and layout as libsignal's `sealed_sender.rs`.
enum SealedSenderV2 {
    /// The version byte of a message as the server delivers it to one recipient (`0x22`).
    static let receivedVersion: UInt8 = 0x22
    /// The version byte of a multi-recipient message whose recipients are written as fixed-width service ids (`0x23`).
    static let sentServiceIdVersion: UInt8 = 0x23
    /// The older sent form whose recipients are ACIs as bare UUIDs (`0x22`); parsed, never written.
    static let sentUUIDVersion: UInt8 = 0x22
    static let messageKeyLength = 32
    static let authenticationTagLength = 16
    static let publicKeyLength = 32

    private static let labelR = Array("Sealed Sender v2: r (2023-08)".utf8)
    private static let labelK = Array("Sealed Sender v2: K".utf8)
    private static let labelDH = Array("Sealed Sender v2: DH".utf8)
    private static let labelDHSender = Array("Sealed Sender v2: DH-sender".utf8)

    /// The ephemeral key pair and content key derived from `m`.
    struct DerivedKeys {
        let ephemeral: PrivateKey
        let contentKey: [UInt8]

        init(m: [UInt8]) throws {
            let r = NativeCrypto.hkdfSHA256(inputKeyMaterial: m, salt: [], info: labelR, count: 32)
            ephemeral = try PrivateKey(r)
            contentKey = NativeCrypto.hkdfSHA256(inputKeyMaterial: m, salt: [], info: labelK, count: 32)
        }
    }

    /// `C_i = HKDF(DH(E, R) ‖ E.pub ‖ R.pub, "DH") ⊕ M` when sending; the same with the roles swapped gives `M` back.
    static func applyAgreementXOR(
        ours: PrivateKey, ourPublic: PublicKey, theirs: PublicKey, sending: Bool, input: [UInt8]
    ) throws -> [UInt8] {
        let agreement = try agreementRefusingLowOrder(ours, theirs)
        let keys = sending ? ourPublic.serializedBytes + theirs.serializedBytes : theirs.serializedBytes + ourPublic.serializedBytes
        let pad = NativeCrypto.hkdfSHA256(inputKeyMaterial: agreement + keys, salt: [], info: labelDH, count: messageKeyLength)
        return zip(pad, input).map { $0 ^ $1 }
    }

    /// `AT_i = HKDF(DH(S, R) ‖ E.pub ‖ C_i ‖ S.pub ‖ R.pub, "DH-sender")`, 16 bytes; `ours` is S when sending and R
    /// when receiving.
    static func authenticationTag(
        ours: IdentityKeyPair, theirs: IdentityKey, sending: Bool, ephemeralPublic: PublicKey, encryptedMessageKey: [UInt8]
    ) throws -> [UInt8] {
        let agreement = try agreementRefusingLowOrder(ours.privateKey, theirs.publicKey)
        let identities =
            sending
            ? ours.publicKey.serializedBytes + theirs.serializedBytes
            : theirs.serializedBytes + ours.publicKey.serializedBytes
        let input = agreement + ephemeralPublic.serializedBytes + encryptedMessageKey + identities
        return NativeCrypto.hkdfSHA256(inputKeyMaterial: input, salt: [], info: labelDHSender, count: authenticationTagLength)
    }

    /// AES-256-GCM-SIV with a zero nonce and no associated data: ciphertext ‖ 16-byte tag.
    static func encryptContent(_ plaintext: [UInt8], key: [UInt8]) throws -> [UInt8] {
        do {
            let box = try AES.GCM._SIV.seal(plaintext, using: SymmetricKey(data: key), nonce: try zeroNonce())
            return Array(box.ciphertext) + Array(box.tag)
        } catch {
            throw SignalError.internalError("AES-GCM-SIV failed: \(error)")
        }
    }

    static func decryptContent(_ sealed: ArraySlice<UInt8>, key: [UInt8]) throws -> [UInt8] {
        guard sealed.count >= 16 else { throw SignalError.invalidSealedSenderMessage("content shorter than its tag") }
        do {
            let box = try AES.GCM._SIV.SealedBox(nonce: try zeroNonce(), ciphertext: sealed.dropLast(16), tag: sealed.suffix(16))
            return Array(try AES.GCM._SIV.open(box, using: SymmetricKey(data: key)))
        } catch {
            throw SignalError.invalidSealedSenderMessage("content does not decrypt")
        }
    }

    /// Opens a message as delivered to one recipient: `0x22` ‖ `C` (32) ‖ `AT` (16) ‖ `E.pub` (32) ‖ content. The
    /// ephemeral key must be the one `M` derives, and the tag must bind the certificate's identity key.
    static func open(_ bytes: [UInt8], recipient: IdentityKeyPair) throws -> UnidentifiedSenderMessageContent {
        let prefix = 1 + messageKeyLength + authenticationTagLength + publicKeyLength
        guard bytes.count >= prefix + 16 else { throw SignalError.invalidSealedSenderMessage("version 2 message too short") }
        let c = Array(bytes[1..<33])
        let tag = Array(bytes[33..<49])
        let ephemeralPublic: PublicKey
        do { ephemeralPublic = try PublicKey(rawKey: Array(bytes[49..<81])) } catch {
            throw SignalError.invalidSealedSenderMessage("the ephemeral key is not an X25519 key")
        }
        let m = try applyAgreementXOR(
            ours: recipient.privateKey, ourPublic: recipient.publicKey, theirs: ephemeralPublic, sending: false, input: c)
        let keys = try DerivedKeys(m: m)
        guard ConstantTime.equals(keys.ephemeral.publicKey.rawKey, ephemeralPublic.rawKey) else {
            throw SignalError.invalidSealedSenderMessage("the ephemeral key is not the one the message key derives")
        }
        let content = try UnidentifiedSenderMessageContent(bytes: try decryptContent(bytes[81...], key: keys.contentKey))
        let expected = try authenticationTag(
            ours: recipient, theirs: IdentityKey(publicKey: content.senderCertificate.publicKey), sending: false,
            ephemeralPublic: ephemeralPublic, encryptedMessageKey: c)
        guard ConstantTime.equals(expected, tag) else {
            throw SignalError.invalidSealedSenderMessage("the sender certificate's key does not match the authentication tag")
        }
        return content
    }

    private static func zeroNonce() throws -> AES.GCM._SIV.Nonce {
        try AES.GCM._SIV.Nonce(data: [UInt8](repeating: 0, count: 12))
    }

    private static func agreementRefusingLowOrder(_ ours: PrivateKey, _ theirs: PublicKey) throws -> [UInt8] {
        do { return try ours.agreement(with: theirs) } catch {
            throw SignalError.invalidSealedSenderMessage("the message carries a low-order key")
        }
    }
}
