import Crypto

/// Turns the ML-KEM-1024 shared secret `K` into the secret of each KEM type.
///
/// Round-3 Kyber and ML-KEM share keys, ciphertexts and the lattice scheme, but round 3
/// returns `SHAKE256(K ‖ SHA3-256(c))` cut to 32 bytes where ML-KEM returns `K`.
enum KEMSharedSecret {
    static func finish(_ k: [UInt8], ciphertext: [UInt8], type: KEMKeyType) throws -> [UInt8] {
        switch type {
        case .mlkem1024:
            return k
        case .kyber1024:
            let ciphertextHash = Array(SHA3_256.hash(data: ciphertext))
            return try NativeCrypto.shake256(k + ciphertextHash, count: 32)
        }
    }
}
