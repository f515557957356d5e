import Crypto
import CryptoExtras
import Foundation
import ParleyProtocol

/// Encrypts the provisioning message from a primary device to a new device's ephemeral key, in the layout of
/// Signal's provisioning cipher:
///
/// - the sender makes an ephemeral Curve25519 key pair and agrees a secret with the new device's public key;
/// - HKDF-SHA256 (no salt, info `"TextSecure Provisioning Message"`) expands it to a 32-byte AES-256 key and a
///   32-byte HMAC-SHA256 key;
/// - `body = 0x01 ‖ IV (16) ‖ AES-256-CBC-PKCS#7(plaintext) ‖ HMAC-SHA256(version ‖ IV ‖ ciphertext)`;
/// - the envelope is the sender's ephemeral public key (33 bytes, DJB-typed) followed by `body`.
///
/// The MAC is checked, in constant time, before anything is decrypted.
public enum ProvisioningCipher {
    static let version: UInt8 = 1
    static let info = Array("TextSecure Provisioning Message".utf8)
    /// Public key, version, IV, one AES block and the MAC.
    static let minimumEnvelopeSize = 33 + 1 + 16 + 16 + 32

    /// Encrypts `plaintext` to `recipient` (the new device's ephemeral public key).
    public static func encrypt(_ plaintext: [UInt8], to recipient: PublicKey) throws -> [UInt8] {
        let ephemeral = PrivateKey.generate()
        let (cipherKey, macKey) = try keys(Array(try ephemeral.keyAgreement(with: recipient)))
        var generator = SystemRandomNumberGenerator()
        let iv = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let ciphertext = Array(try AES._CBC.encrypt(plaintext, using: cipherKey, iv: try AES._CBC.IV(ivBytes: iv)))
        let authenticated = [version] + iv + ciphertext
        let mac = Array(HMAC<SHA256>.authenticationCode(for: authenticated, using: macKey))
        return ephemeral.publicKey.serialize() + authenticated + mac
    }

    /// Decrypts an envelope made by ``encrypt(_:to:)`` with the new device's ephemeral private key.
    ///
    /// - Throws: ``ParleyError/Provisioning`` for a short or malformed envelope, an unknown version or a failed MAC.
    public static func decrypt(_ envelope: [UInt8], with privateKey: PrivateKey) throws -> [UInt8] {
        guard envelope.count >= minimumEnvelopeSize else {
            throw ParleyError.provisioning(.malformedEnvelope("too short (\(envelope.count) bytes)"))
        }
        let senderKey: PublicKey
        do {
            senderKey = try PublicKey(Array(envelope[0..<33]))
        } catch {
            throw ParleyError.provisioning(.malformedEnvelope("the sender key is not a Curve25519 public key"))
        }
        let body = Array(envelope[33...])
        guard body[0] == version else { throw ParleyError.provisioning(.unsupportedVersion(body[0])) }
        let authenticated = Array(body[0..<(body.count - 32)])
        let mac = Array(body[(body.count - 32)...])
        guard (authenticated.count - 17) % 16 == 0 else {
            throw ParleyError.provisioning(.malformedEnvelope("the ciphertext is not whole AES blocks"))
        }
        let (cipherKey, macKey) = try keys(Array(try privateKey.keyAgreement(with: senderKey)))
        let expected = Array(HMAC<SHA256>.authenticationCode(for: authenticated, using: macKey))
        guard ConstantTimeBytes.equal(expected, mac) else { throw ParleyError.provisioning(.badMAC) }
        do {
            return Array(try AES._CBC.decrypt(authenticated[17...], using: cipherKey, iv: try AES._CBC.IV(ivBytes: authenticated[1..<17])))
        } catch {
            throw ParleyError.provisioning(.malformedEnvelope("bad padding"))
        }
    }

    private static func keys(_ sharedSecret: [UInt8]) throws -> (cipher: SymmetricKey, mac: SymmetricKey) {
        let derived = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: sharedSecret), info: info, outputByteCount: 64
        ).withUnsafeBytes { Array($0) }
        return (SymmetricKey(data: derived[0..<32]), SymmetricKey(data: derived[32..<64]))
    }
}
