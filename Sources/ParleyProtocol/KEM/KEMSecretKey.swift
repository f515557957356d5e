import Crypto
import Foundation

/// A KEM secret key, stored as type byte ‖ the 64-byte ML-KEM seed `d ‖ z` from which the key is re-derived.
///
/// This is Parley's storage format; libsignal stores the expanded secret key instead.
public struct KEMSecretKey: Sendable {
    /// The mechanism this key belongs to.
    public let keyType: KEMKeyType
    let key: MLKEM1024.PrivateKey

    /// Parses a serialized secret key (type byte ‖ 64-byte seed).
    /// - Throws: ``SignalError/invalidKey(_:)`` for an unknown type byte or a wrong length.
    public init<Bytes: ContiguousBytes>(_ bytes: Bytes) throws {
        let serialized = bytes.byteArray
        keyType = try KEMKeyType.parse(prefixOf: serialized, what: "KEM secret key")
        guard serialized.count == 1 + KEMKeyType.seedLength else {
            throw SignalError.invalidKey("KEM secret key is \(serialized.count) bytes, expected \(1 + KEMKeyType.seedLength)")
        }
        do {
            key = try MLKEM1024.PrivateKey(seedRepresentation: serialized[1...], publicKey: nil)
        } catch {
            throw SignalError.invalidKey("KEM seed does not make a key")
        }
    }

    init(keyType: KEMKeyType, key: MLKEM1024.PrivateKey) {
        self.keyType = keyType
        self.key = key
    }

    /// Type byte ‖ 64-byte seed.
    public func serialize() -> Data { Data([keyType.rawValue] + Array(key.seedRepresentation)) }

    /// The matching public key.
    public var publicKey: KEMPublicKey { KEMPublicKey(keyType: keyType, key: key.publicKey) }

    /// Decapsulates a serialized ciphertext (type byte ‖ 1568 bytes) to the 32-byte shared secret.
    /// - Throws: ``SignalError/invalidMessage(_:)`` for a ciphertext of another type or length.
    func decapsulate(_ serializedCiphertext: [UInt8]) throws -> [UInt8] {
        guard serializedCiphertext.first == keyType.rawValue else {
            throw SignalError.invalidMessage("KEM ciphertext type does not match the KEM prekey")
        }
        guard serializedCiphertext.count == 1 + KEMKeyType.ciphertextLength else {
            throw SignalError.invalidMessage(
                "KEM ciphertext is \(serializedCiphertext.count) bytes, expected \(1 + KEMKeyType.ciphertextLength)")
        }
        let ciphertext = Array(serializedCiphertext[1...])
        let k: [UInt8]
        do {
            k = try key.decapsulate(ciphertext).withUnsafeBytes { Array($0) }
        } catch {
            throw SignalError.invalidMessage("KEM decapsulation failed")
        }
        return try KEMSharedSecret.finish(k, ciphertext: ciphertext, type: keyType)
    }
}
