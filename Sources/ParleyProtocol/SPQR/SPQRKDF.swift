/// The HKDF-SHA256 derivations of SPQR V1 (salt 32 zero bytes unless given; labels exactly as libsignal's SPQR
/// crate spells them, one of them with two spaces).
enum SPQRKDF {
    static func hkdf(_ inputKeyMaterial: [UInt8], salt: [UInt8] = [UInt8](repeating: 0, count: 32), info: [UInt8], count: Int) -> [UInt8] {
        NativeCrypto.hkdfSHA256(inputKeyMaterial: inputKeyMaterial, salt: salt, info: info, count: count)
    }

    static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    /// The epoch's shared secret from the ML-KEM-768 shared secret `kemSecret`.
    static func epochSecret(kemSecret: [UInt8], epoch: UInt64) -> [UInt8] {
        hkdf(kemSecret, info: Array("Signal_PQCKA_V1_MLKEM768:SCKA Key".utf8) + bigEndian(epoch), count: 32)
    }
}
