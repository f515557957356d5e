/// The key encapsulation mechanisms of PQXDH, named by the type byte that prefixes
/// their serialized keys and ciphertexts (libsignal's `kem::KeyType`).
public enum KEMKeyType: UInt8, Sendable, CaseIterable {
    /// CRYSTALS-Kyber round 3, 1024 parameters: what libsignal ships and Signal clients upload. The default.
    case kyber1024 = 0x08
    /// FIPS 203 ML-KEM-1024.
    case mlkem1024 = 0x0A

    /// Raw public key length (without the type byte).
    public static let publicKeyLength = 1568
    /// Raw ciphertext length (without the type byte).
    public static let ciphertextLength = 1568
    /// Length of the stored secret: the 64-byte ML-KEM seed `d ‖ z`.
    public static let seedLength = 64

    /// The name used by the interop protocol (`"kyber1024"`, `"mlkem1024"`).
    public var name: String {
        switch self {
        case .kyber1024: return "kyber1024"
        case .mlkem1024: return "mlkem1024"
        }
    }

    /// Reads the type byte of a serialized key or ciphertext.
    /// - Throws: ``SignalError/invalidKey(_:)`` for an empty input or an unknown type.
    static func parse(prefixOf bytes: [UInt8], what: String) throws -> KEMKeyType {
        guard let first = bytes.first else { throw SignalError.invalidKey("empty \(what)") }
        guard let type = KEMKeyType(rawValue: first) else {
            throw SignalError.invalidKey("\(what) has unknown KEM type 0x\(String(first, radix: 16))")
        }
        return type
    }
}
