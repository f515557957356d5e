import Crypto
import Foundation

/// A KEM public key (PQXDH "Kyber prekey"), serialized as type byte ‖ 1568 raw bytes.
public struct KEMPublicKey: Sendable, Hashable {
    /// The mechanism this key belongs to.
    public let keyType: KEMKeyType
    let key: MLKEM1024.PublicKey
    private let raw: [UInt8]

    /// Parses a serialized key.
    /// - Throws: ``SignalError/invalidKey(_:)`` for an unknown type byte, a wrong length, or a key that is not a valid ML-KEM key.
    public init<Bytes: ContiguousBytes>(_ bytes: Bytes) throws {
        let serialized = bytes.byteArray
        keyType = try KEMKeyType.parse(prefixOf: serialized, what: "KEM public key")
        guard serialized.count == 1 + KEMKeyType.publicKeyLength else {
            throw SignalError.invalidKey("KEM public key is \(serialized.count) bytes, expected \(1 + KEMKeyType.publicKeyLength)")
        }
        raw = Array(serialized[1...])
        do {
            key = try MLKEM1024.PublicKey(rawRepresentation: raw)
        } catch {
            throw SignalError.invalidKey("KEM public key is not a valid 1024-parameter key")
        }
    }

    init(keyType: KEMKeyType, key: MLKEM1024.PublicKey) {
        self.keyType = keyType
        self.key = key
        self.raw = Array(key.rawRepresentation)
    }

    /// Type byte ‖ raw key (1569 bytes).
    public func serialize() -> Data { Data(serializedBytes) }

    /// The serialized form as an array, for the protocol's own byte strings.
    var serializedBytes: [UInt8] { [keyType.rawValue] + raw }

    /// Encapsulates a fresh shared secret to this key.
    /// - Returns: the 32-byte shared secret and the serialized ciphertext (type byte ‖ 1568 bytes).
    func encapsulate() throws -> (sharedSecret: [UInt8], ciphertext: [UInt8]) {
        let result: KEM.EncapsulationResult
        do {
            result = try key.encapsulate()
        } catch {
            throw SignalError.invalidKey("KEM encapsulation failed")
        }
        let ciphertext = Array(result.encapsulated)
        let k = result.sharedSecret.withUnsafeBytes { Array($0) }
        return (try KEMSharedSecret.finish(k, ciphertext: ciphertext, type: keyType), [keyType.rawValue] + ciphertext)
    }

    public static func == (lhs: KEMPublicKey, rhs: KEMPublicKey) -> Bool { lhs.keyType == rhs.keyType && lhs.raw == rhs.raw }
    public func hash(into hasher: inout Hasher) { hasher.combine(raw) }
}
