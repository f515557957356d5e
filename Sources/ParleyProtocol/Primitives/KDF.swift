/// The HMAC-SHA256 and HKDF-SHA256 derivations of the Signal Protocol.
///
/// They run on OpenSSL's SHA-256 through ``NativeCrypto``: swift-crypto's generic
/// `HMAC`/`HKDF` wrappers cost about ten times the hashing itself on these short inputs,
/// and they sit on every message's path (see BENCHMARKS.md).
enum KDF {
    /// HKDF-SHA256; an empty `salt` is the RFC 5869 default (hash-length zeros).
    static func hkdf(inputKeyMaterial: [UInt8], salt: [UInt8] = [], info: String, count: Int) -> [UInt8] {
        NativeCrypto.hkdfSHA256(inputKeyMaterial: inputKeyMaterial, salt: salt, info: Array(info.utf8), count: count)
    }

    /// HMAC-SHA256 of `message` under `key`.
    static func hmacSHA256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        NativeCrypto.hmacSHA256(key: key, message: message)
    }
}
