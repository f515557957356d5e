import Crypto
import Foundation

/// Lizard: 16 bytes as a ristretto255 point and back (libsignal encrypts a UUID's bytes as the point M2 this way).
///
/// Encoding: b = SHA-256(m) with bytes 8..<24 replaced by m, bit 0 and the top two bits cleared, then one Elligator
/// map. Decoding tries every field element the point is the image of and keeps the one that carries its own tag;
/// exactly one must.
enum Lizard {
    /// The point encoding `message` (16 bytes).
    static func encode(_ message: [UInt8]) -> RistrettoPoint {
        RistrettoPoint.elligator(tagged(message))
    }

    /// The 16 bytes `point` encodes, or `nil` when it encodes none (or more than one candidate qualifies).
    static func decode(_ point: RistrettoPoint) -> [UInt8]? {
        guard let positive = NativeCrypto.elligatorInverse(point.bytes) else { return nil }
        let candidates = positive.compactMap { $0 } + positive.compactMap { $0.map(FieldElement.negated) }
        var found: [UInt8]? = nil
        var matches = 0
        for candidate in candidates where ConstantTime.equals(tagged(Array(candidate[8..<24])), candidate) {
            found = Array(candidate[8..<24])
            matches += 1
        }
        return matches == 1 ? found : nil
    }

    /// The 32 bytes whose Elligator image encodes `message`.
    private static func tagged(_ message: [UInt8]) -> [UInt8] {
        var bytes = Array(SHA256.hash(data: message))
        bytes.replaceSubrange(8..<24, with: message)
        bytes[0] &= 0xFE
        bytes[31] &= 0x3F
        return bytes
    }
}
