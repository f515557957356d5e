import Crypto

/// A KEM key pair for PQXDH prekeys.
public struct KEMKeyPair: Sendable {
    /// The secret half.
    public let secretKey: KEMSecretKey

    /// A fresh key pair of `type` (default: round-3 Kyber1024, type `0x08`, as Signal's clients use).
    public static func generate(type: KEMKeyType = .kyber1024) -> KEMKeyPair {
        do {
            return KEMKeyPair(secretKey: KEMSecretKey(keyType: type, key: try MLKEM1024.PrivateKey.generate()))
        } catch {
            preconditionFailure("ML-KEM-1024 key generation failed: \(error)")
        }
    }

    /// Pairs a secret key with its public key.
    public init(secretKey: KEMSecretKey) { self.secretKey = secretKey }

    /// The public half.
    public var publicKey: KEMPublicKey { secretKey.publicKey }
}
