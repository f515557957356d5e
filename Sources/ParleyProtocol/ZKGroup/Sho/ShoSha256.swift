import Crypto
import Foundation

/// poksho's other stateful hash object, over plain SHA-256 (the "inner pad" construction): only zkcredential's constant
/// system parameters are squeezed from it.
///
/// - absorb: appended to SHA-256 started over 64 zero bytes and the chaining value;
/// - ratchet: cv = SHA-256(that hash) (nothing when nothing was absorbed);
/// - squeeze n bytes: blocks SHA-256(0x00×63 ‖ 0x01 ‖ cv ‖ u64_be(i)), cut to n; then
///   cv = SHA-256(0x00×63 ‖ 0x02 ‖ cv ‖ u64_be(n)).
struct ShoSha256: Sendable {
    private var chainingValue = [UInt8](repeating: 0, count: 32)
    private var absorbed: [UInt8]? = nil

    /// A SHO that absorbed `label` and ratcheted.
    init(label: String) {
        absorb(Array(label.utf8))
        ratchet()
    }

    mutating func absorb(_ bytes: some Collection<UInt8>) {
        absorbed = (absorbed ?? []) + bytes
    }

    mutating func ratchet() {
        guard let pending = absorbed else { return }
        let inner = SHA256.hash(data: [UInt8](repeating: 0, count: 64) + chainingValue + pending)
        chainingValue = Array(SHA256.hash(data: Array(inner)))
        absorbed = nil
    }

    mutating func squeezeAndRatchet(_ count: Int) -> [UInt8] {
        precondition(absorbed == nil, "squeezing needs a ratcheted SHO")
        let prefix = [UInt8](repeating: 0, count: 63) + [0x01] + chainingValue
        var output: [UInt8] = []
        var block: UInt64 = 0
        while output.count < count {
            output += SHA256.hash(data: prefix + ShoHmacSha256.bigEndian(block))
            block += 1
        }
        chainingValue = Array(
            SHA256.hash(data: [UInt8](repeating: 0, count: 63) + [0x02] + chainingValue + ShoHmacSha256.bigEndian(UInt64(count))))
        return Array(output.prefix(count))
    }

    /// A point from 64 squeezed bytes.
    mutating func point() -> RistrettoPoint { RistrettoPoint.fromHash(squeezeAndRatchet(64)) }
}
