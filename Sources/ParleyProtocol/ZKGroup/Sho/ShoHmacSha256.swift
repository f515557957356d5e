import Foundation

/// Signal's stateful hash object over HMAC-SHA256 (poksho's `ShoHmacSha256`), from which zkgroup derives every key,
/// point and nonce: bytes are absorbed into a 32-byte chaining value, then squeezed out in HMAC blocks.
///
/// - absorb: appended to an HMAC keyed by the chaining value (successive absorbs concatenate);
/// - ratchet: the chaining value becomes that HMAC over what was absorbed followed by `0x00` (nothing when nothing was
///   absorbed since the last ratchet);
/// - squeeze n bytes: blocks HMAC(cv, u64_be(i) ‖ 0x01) for i = 0, 1…, cut to n; then cv = HMAC(cv, u64_be(n) ‖ 0x02).
///
/// A value type: a copy continues independently (poksho forks transcripts that way).
struct ShoHmacSha256: Sendable {
    private var chainingValue = [UInt8](repeating: 0, count: 32)
    /// What was absorbed since the last ratchet; `nil` when ratcheted.
    private var absorbed: [UInt8]? = nil

    /// A SHO that absorbed `label` and ratcheted.
    init(label: String) {
        absorb(Array(label.utf8))
        ratchet()
    }

    /// A SHO that absorbed `label`, ratcheted, then absorbed `data` and ratcheted (zkgroup's `Sho::new(label, data)`).
    init(label: String, data: some Collection<UInt8>) {
        self.init(label: label)
        absorbAndRatchet(data)
    }

    /// Appends `bytes` to what the next ratchet hashes.
    mutating func absorb(_ bytes: some Collection<UInt8>) {
        absorbed = (absorbed ?? []) + bytes
    }

    /// Folds what was absorbed into the chaining value.
    mutating func ratchet() {
        guard let pending = absorbed else { return }
        chainingValue = KDF.hmacSHA256(key: chainingValue, pending + [0x00])
        absorbed = nil
    }

    /// ``absorb(_:)`` then ``ratchet()``.
    mutating func absorbAndRatchet(_ bytes: some Collection<UInt8>) {
        absorb(bytes)
        ratchet()
    }

    /// `count` bytes out, then a ratchet.
    mutating func squeezeAndRatchet(_ count: Int) -> [UInt8] {
        precondition(absorbed == nil, "squeezing needs a ratcheted SHO")
        var output: [UInt8] = []
        output.reserveCapacity(count + 32)
        var block: UInt64 = 0
        while output.count < count {
            output += KDF.hmacSHA256(key: chainingValue, Self.bigEndian(block) + [0x01])
            block += 1
        }
        chainingValue = KDF.hmacSHA256(key: chainingValue, Self.bigEndian(UInt64(count)) + [0x02])
        return Array(output.prefix(count))
    }

    /// A point from 64 squeezed bytes (hash-to-group).
    mutating func point() -> RistrettoPoint { RistrettoPoint.fromHash(squeezeAndRatchet(64)) }

    /// A point from 32 squeezed bytes through one Elligator map.
    mutating func pointSingleElligator() -> RistrettoPoint { RistrettoPoint.elligator(squeezeAndRatchet(32)) }

    /// A scalar from 64 squeezed bytes, reduced.
    mutating func scalar() -> RistrettoScalar { RistrettoScalar.reducing(squeezeAndRatchet(64)) }

    static func bigEndian(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
}
