import Crypto
import Foundation

/// Message encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC 8188), one record.
///
/// The server makes an ephemeral P-256 key per message; the shared secret with the subscription's key, mixed with its
/// 16-byte auth secret, keys AES-128-GCM. The body is the coding header (salt, record size, the ephemeral public key)
/// followed by the ciphertext, so only the subscriber can read it and no two pushes look alike.
public enum WebPushEncryption {
    /// The record size announced in the header (RFC 8188 §2); the payload fits one record.
    public static let recordSize: UInt32 = 4096
    /// The largest plaintext RFC 8291 §4 allows: a push message is at most 4096 bytes, of which the header (86), the
    /// delimiter (1) and the tag (16) take 103.
    public static let maximumPlaintextBytes = 3993

    /// Errors that make a subscription unusable.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// `p256dh` is not an uncompressed P-256 point.
        case invalidSubscriptionKey
        /// `auth` is not 16 bytes.
        case invalidAuthSecret
        /// The plaintext does not fit one record.
        case payloadTooLarge(Int)

        public var description: String {
            switch self {
            case .invalidSubscriptionKey: return "p256dh is not an uncompressed P-256 public key (65 bytes)"
            case .invalidAuthSecret: return "auth is not 16 bytes"
            case .payloadTooLarge(let bytes): return "a \(bytes)-byte push payload does not fit one \(recordSize)-byte record"
            }
        }
    }

    /// Encrypts `plaintext` for the subscription (`p256dh`, `auth`) with a fresh ephemeral key and salt.
    public static func encrypt(_ plaintext: [UInt8], p256dh: [UInt8], auth: [UInt8]) throws -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return try encrypt(plaintext, p256dh: p256dh, auth: auth, ephemeralKey: P256.KeyAgreement.PrivateKey(), salt: salt)
    }

    /// Encrypts with the given ephemeral key and salt: only RFC 8291's known-answer test should pick these.
    static func encrypt(
        _ plaintext: [UInt8], p256dh: [UInt8], auth: [UInt8], ephemeralKey: P256.KeyAgreement.PrivateKey, salt: [UInt8]
    ) throws -> [UInt8] {
        guard p256dh.count == 65, p256dh.first == 0x04,
            let subscriberKey = try? P256.KeyAgreement.PublicKey(x963Representation: p256dh)
        else { throw Failure.invalidSubscriptionKey }
        guard auth.count == 16 else { throw Failure.invalidAuthSecret }
        guard plaintext.count <= maximumPlaintextBytes else { throw Failure.payloadTooLarge(plaintext.count) }
        let ephemeralPublic = Array(ephemeralKey.publicKey.x963Representation)
        let shared = try ephemeralKey.sharedSecretFromKeyAgreement(with: subscriberKey)

        // RFC 8291 §3.3: IKM = HKDF(salt: auth, ikm: ECDH, info: "WebPush: info" 0x00 ua_public as_public, 32 bytes).
        let keyInfo = Array("WebPush: info".utf8) + [0] + p256dh + ephemeralPublic
        let inputKey = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: auth, sharedInfo: keyInfo, outputByteCount: 32)
        // RFC 8188 §2.2: the content encryption key and nonce from the message's salt.
        let pseudorandomKey = HKDF<SHA256>.extract(inputKeyMaterial: inputKey, salt: salt)
        let contentKey = HKDF<SHA256>.expand(
            pseudoRandomKey: pseudorandomKey, info: Array("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonceBytes = HKDF<SHA256>.expand(
            pseudoRandomKey: pseudorandomKey, info: Array("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12
        )
        .withUnsafeBytes { Array($0) }

        // One record, the last: the plaintext, then the 0x02 delimiter (no padding).
        let sealed = try AES.GCM.seal(plaintext + [2], using: contentKey, nonce: AES.GCM.Nonce(data: nonceBytes))
        var header = salt
        header += withUnsafeBytes(of: recordSize.bigEndian, Array.init)
        header.append(UInt8(ephemeralPublic.count))
        header += ephemeralPublic
        return header + Array(sealed.ciphertext) + Array(sealed.tag)
    }
}
