import Foundation

/// The little arithmetic on canonical field elements (mod p = 2^255 − 19) that Lizard's decoding needs besides the C
/// shim: negation.
enum FieldElement {
    /// p, little-endian.
    private static let prime: [UInt8] = [0xed] + [UInt8](repeating: 0xff, count: 30) + [0x7f]

    /// −x mod p for a canonical `x` (0 stays 0).
    static func negated(_ x: [UInt8]) -> [UInt8] {
        guard x.contains(where: { $0 != 0 }) else { return x }
        var result = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in 0..<32 {
            let difference = Int(prime[index]) - Int(x[index]) - borrow
            result[index] = UInt8(truncatingIfNeeded: difference)
            borrow = difference < 0 ? 1 : 0
        }
        return result
    }
}
