import Foundation

/// An element of the ristretto255 group (RFC 9496), held as its canonical 32-byte encoding. Every value is valid: one
/// made from bytes went through ``init(encoding:)``, which refuses anything non-canonical.
struct RistrettoPoint: Sendable, Equatable {
    /// The canonical encoding.
    let bytes: [UInt8]

    private init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    /// The point `encoding` encodes; `nil` unless it is 32 bytes in canonical form (the identity included).
    init?(encoding: some Collection<UInt8>) {
        let bytes = Array(encoding)
        guard NativeCrypto.ristrettoIsValid(bytes) else { return nil }
        self.bytes = bytes
    }

    /// The identity element (32 zero bytes).
    static let identity = RistrettoPoint(unchecked: [UInt8](repeating: 0, count: 32))

    /// The generator B.
    static let generator = RistrettoPoint(unchecked: NativeCrypto.ristrettoMultiplyBase([1] + [UInt8](repeating: 0, count: 31)))

    /// The point 64 uniformly random bytes map to (RFC 9496's hash-to-group: two Elligator images, added).
    static func fromHash(_ hash: [UInt8]) -> RistrettoPoint {
        RistrettoPoint(unchecked: NativeCrypto.ristrettoFromHash(hash))
    }

    /// The single Elligator image of 32 bytes (libsignal's `map_to_curve`): the image of zero is the identity, so it is
    /// ``fromHash(_:)`` of the bytes followed by 32 zeros.
    static func elligator(_ bytes: [UInt8]) -> RistrettoPoint {
        precondition(bytes.count == 32, "caller passes 32 bytes")
        return fromHash(bytes + [UInt8](repeating: 0, count: 32))
    }

    /// `scalar` · B.
    static func base(times scalar: RistrettoScalar) -> RistrettoPoint {
        RistrettoPoint(unchecked: NativeCrypto.ristrettoMultiplyBase(scalar.bytes))
    }

    static func + (p: RistrettoPoint, q: RistrettoPoint) -> RistrettoPoint {
        RistrettoPoint(unchecked: NativeCrypto.ristrettoAdd(p.bytes, q.bytes))
    }

    static func - (p: RistrettoPoint, q: RistrettoPoint) -> RistrettoPoint {
        RistrettoPoint(unchecked: NativeCrypto.ristrettoSub(p.bytes, q.bytes))
    }

    static func * (scalar: RistrettoScalar, point: RistrettoPoint) -> RistrettoPoint {
        // A valid point always multiplies; the identity product is written as the identity.
        RistrettoPoint(unchecked: NativeCrypto.ristrettoMultiply(scalar.bytes, point.bytes) ?? identity.bytes)
    }

    /// Constant-time equality of the encodings (points derived from secrets are compared).
    static func == (p: RistrettoPoint, q: RistrettoPoint) -> Bool {
        ConstantTime.equals(p.bytes, q.bytes)
    }
}
