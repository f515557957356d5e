import Crypto
import CryptoExtras
import Foundation

/// AES-256-CBC with PKCS#7 padding, the body cipher of Signal messages (swift-crypto).
enum MessageCipher {
    /// Encrypts `plaintext` under a 32-byte key and 16-byte IV.
    static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        do {
            let ivValue = try AES._CBC.IV(ivBytes: iv)
            return Array(try AES._CBC.encrypt(plaintext, using: SymmetricKey(data: key), iv: ivValue))
        } catch {
            throw SignalError.internalError("AES-CBC encryption failed: \(error)")
        }
    }

    /// Decrypts and unpads; any failure is an invalid message, never a trap. The plaintext stays the `Data`
    /// swift-crypto makes, which the public decrypt functions return as it is.
    static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) throws -> Data {
        guard !ciphertext.isEmpty, ciphertext.count % 16 == 0 else {
            throw SignalError.invalidMessage("ciphertext length \(ciphertext.count) is not a positive multiple of 16")
        }
        do {
            let ivValue = try AES._CBC.IV(ivBytes: iv)
            return try AES._CBC.decrypt(ciphertext, using: SymmetricKey(data: key), iv: ivValue)
        } catch {
            throw SignalError.invalidMessage("body does not decrypt (bad padding)")
        }
    }
}
