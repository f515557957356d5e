/// The keys of one group message: `HKDF(seed, "WhisperGroup", 48)` → IV (16) ‖ AES-256 key (32).
struct SenderMessageKey: Sendable {
    let iv: [UInt8]
    let cipherKey: [UInt8]

    init(seed: [UInt8]) {
        let derived = KDF.hkdf(inputKeyMaterial: seed, info: "WhisperGroup", count: 48)
        iv = Array(derived[0..<16])
        cipherKey = Array(derived[16..<48])
    }
}
