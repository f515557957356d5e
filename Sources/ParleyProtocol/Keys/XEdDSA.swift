/// XEdDSA (signal.org/docs/specifications/xeddsa): Ed25519-style signatures made
/// with X25519 keys. The Edwards arithmetic is libsodium's, reached through ``NativeCrypto``.
enum XEdDSA {
    /// Signs `message` with nonce `random` (64 bytes). Deterministic for fixed inputs, which the known-answer tests use.
    static func sign(privateKey: [UInt8], message: [UInt8], random: [UInt8]) -> [UInt8] {
        do {
            return try NativeCrypto.xeddsaSign(privateKey: privateKey, message: message, random: random)
        } catch {
            // Signing valid fixed-size inputs cannot fail unless libsodium is unusable.
            preconditionFailure("XEdDSA signing failed: \(error)")
        }
    }

    /// Verifies under a 32-byte Montgomery public key; rejects u ≥ p, s ≥ 2^253 and non-canonical encodings.
    static func verify(signature: [UInt8], publicKey: [UInt8], message: [UInt8]) -> Bool {
        NativeCrypto.xeddsaVerify(signature: signature, publicKey: publicKey, message: message)
    }
}
