import Crypto

/// The HMAC-SHA256 and HKDF-SHA256 derivations of the Signal Protocol (swift-crypto).
enum KDF {
    /// HKDF-SHA256; an empty `salt` is the RFC 5869 default (hash-length zeros).
    static func hkdf(inputKeyMaterial: [UInt8], salt: [UInt8] = [], info: String, count: Int) -> [UInt8] {
        hkdf(inputKeyMaterial: inputKeyMaterial, salt: salt, info: Array(info.utf8), count: count)
    }

    /// HKDF-SHA256 with a binary `info`.
    static func hkdf(inputKeyMaterial: [UInt8], salt: [UInt8], info: [UInt8], count: Int) -> [UInt8] {
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: inputKeyMaterial), salt: salt, info: info, outputByteCount: count)
        return key.withUnsafeBytes { Array($0) }
    }

    /// HMAC-SHA256 of `message` under `key`.
    static func hmacSHA256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }
}
