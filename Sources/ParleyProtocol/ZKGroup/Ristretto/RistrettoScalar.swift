import Foundation

/// An integer modulo the ristretto255 group order ℓ = 2^252 + 27742317777372353535851937790883648493, held as its
/// canonical 32-byte little-endian encoding.
struct RistrettoScalar: Sendable, Equatable {
    /// The canonical encoding.
    let bytes: [UInt8]

    private init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    /// ℓ, little-endian.
    private static let order: [UInt8] = [
        0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
    ]

    /// The scalar `encoding` encodes; `nil` unless it is 32 bytes holding a value below ℓ.
    init?(canonical encoding: some Collection<UInt8>) {
        let bytes = Array(encoding)
        guard bytes.count == 32, Self.isBelowOrder(bytes) else { return nil }
        self.bytes = bytes
    }

    /// 64 bytes reduced modulo ℓ (libsignal's `from_bytes_mod_order_wide`).
    static func reducing(_ wide: [UInt8]) -> RistrettoScalar {
        RistrettoScalar(unchecked: NativeCrypto.scalarReduce(wide))
    }

    /// 1 / self; `nil` for zero.
    var inverse: RistrettoScalar? { NativeCrypto.scalarInvert(bytes).map(RistrettoScalar.init(unchecked:)) }

    static prefix func - (s: RistrettoScalar) -> RistrettoScalar { RistrettoScalar(unchecked: NativeCrypto.scalarNegate(s.bytes)) }
    static func + (a: RistrettoScalar, b: RistrettoScalar) -> RistrettoScalar {
        RistrettoScalar(unchecked: NativeCrypto.scalarAdd(a.bytes, b.bytes))
    }
    static func - (a: RistrettoScalar, b: RistrettoScalar) -> RistrettoScalar {
        RistrettoScalar(unchecked: NativeCrypto.scalarSub(a.bytes, b.bytes))
    }
    static func * (a: RistrettoScalar, b: RistrettoScalar) -> RistrettoScalar {
        RistrettoScalar(unchecked: NativeCrypto.scalarMul(a.bytes, b.bytes))
    }

    /// Constant-time equality (scalars are secrets).
    static func == (a: RistrettoScalar, b: RistrettoScalar) -> Bool { ConstantTime.equals(a.bytes, b.bytes) }

    /// Whether the little-endian `bytes` are below ℓ, without branching on their value.
    private static func isBelowOrder(_ bytes: [UInt8]) -> Bool {
        // Subtract ℓ with borrow: a final borrow means bytes < ℓ.
        var borrow: Int = 0
        for index in 0..<32 {
            let difference = Int(bytes[index]) - Int(order[index]) - borrow
            borrow = (difference >> 8) & 1
        }
        return borrow == 1
    }
}
