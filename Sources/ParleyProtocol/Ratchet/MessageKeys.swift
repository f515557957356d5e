/// The keys of one 1:1 message: AES-256 key, HMAC key and CBC IV.
struct MessageKeys: Sendable {
    let cipherKey: [UInt8]
    let macKey: [UInt8]
    let iv: [UInt8]

    /// `HKDF(salt: salt or none, ikm: seed, "WhisperMessageKeys", 80)` → cipher key (32) ‖ MAC key (32) ‖ IV (16).
    /// The salt is the SPQR message key in triple-ratchet sessions, empty otherwise.
    init(seed: [UInt8], salt: [UInt8] = []) {
        let derived = KDF.hkdf(inputKeyMaterial: seed, salt: salt, info: "WhisperMessageKeys", count: 80)
        cipherKey = Array(derived[0..<32])
        macKey = Array(derived[32..<64])
        iv = Array(derived[64..<80])
    }
}
