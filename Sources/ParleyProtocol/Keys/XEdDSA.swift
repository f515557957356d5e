import Synchronization

/// XEdDSA (signal.org/docs/specifications/xeddsa): Ed25519-style signatures made
/// with X25519 keys, on libsodium's Edwards arithmetic through ``NativeCrypto``.
/// (swift-crypto's Ed25519 verifier was measured slower here: 147 µs against libsodium's 96 µs.)
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
        guard let edwards = EdwardsKeyCache.edwardsY(of: publicKey) else { return false }
        return NativeCrypto.xeddsaVerify(signature: signature, edwardsY: edwards, message: message)
    }
}

/// Remembers the Edwards form of recently used public keys: the conversion costs a modular
/// inversion (~27 µs), more than a quarter of a verification, and the same identity and
/// sender-signing keys verify message after message. Public data only; bounded.
private enum EdwardsKeyCache {
    static let capacity = 1024
    /// Guards the map from Montgomery u to Edwards y.
    private static let entries = Mutex<[[UInt8]: [UInt8]]>([:])

    static func edwardsY(of montgomeryU: [UInt8]) -> [UInt8]? {
        if let cached = entries.withLock({ $0[montgomeryU] }) { return cached }
        guard let y = NativeCrypto.edwardsY(montgomeryU: montgomeryU) else { return nil }
        entries.withLock { map in
            if map.count >= capacity { map.removeAll(keepingCapacity: true) }
            map[montgomeryU] = y
        }
        return y
    }
}
