/// The Double Ratchet root key; each DH ratchet step turns it into a new root key and a chain key.
struct RootKey: Sendable {
    let key: [UInt8]

    /// `HKDF(salt: root key, ikm: DH(ours, theirs), "WhisperRatchet", 64)` → new root key ‖ new chain key.
    func createChain(theirRatchetKey: PublicKey, ourRatchetKey: PrivateKey) throws -> (RootKey, ChainKey) {
        let sharedSecret = try ourRatchetKey.agreement(with: theirRatchetKey)
        let derived = KDF.hkdf(inputKeyMaterial: sharedSecret, salt: key, info: "WhisperRatchet", count: 64)
        return (RootKey(key: Array(derived[0..<32])), ChainKey(key: Array(derived[32..<64]), index: 0))
    }
}
