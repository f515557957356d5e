import CParleyCrypto

/// ristretto255 through the C shim (libsodium, and OpenSSL big numbers for the Elligator inverse): the calls behind
/// ``RistrettoPoint`` and ``RistrettoScalar``. Inputs are 32-byte encodings (64 for a hash or a wide scalar).
extension NativeCrypto {
    static func ristrettoFromHash(_ hash: [UInt8]) -> [UInt8] {
        precondition(hash.count == 64, "caller passes 64 bytes")
        var point = [UInt8](repeating: 0, count: 32)
        _ = initialized
        _ = point.withUnsafeMutableBufferPointer { out in
            hash.withUnsafeBufferPointer { parley_zk_ristretto255_from_hash(out.baseAddress, $0.baseAddress) }
        }
        return point
    }

    static func ristrettoIsValid(_ point: [UInt8]) -> Bool {
        _ = initialized
        return point.count == 32 && point.withUnsafeBufferPointer { parley_zk_ristretto255_is_valid($0.baseAddress) } == 1
    }

    static func ristrettoAdd(_ p: [UInt8], _ q: [UInt8]) -> [UInt8] {
        binary(p, q, parley_zk_ristretto255_add)
    }

    static func ristrettoSub(_ p: [UInt8], _ q: [UInt8]) -> [UInt8] {
        binary(p, q, parley_zk_ristretto255_sub)
    }

    /// `n` · `p`; `nil` when `p` is not a valid encoding.
    static func ristrettoMultiply(_ n: [UInt8], _ p: [UInt8]) -> [UInt8]? {
        _ = initialized
        var q = [UInt8](repeating: 0, count: 32)
        let rc = q.withUnsafeMutableBufferPointer { out in
            n.withUnsafeBufferPointer { n in
                p.withUnsafeBufferPointer { parley_zk_ristretto255_scalarmult(out.baseAddress, n.baseAddress, $0.baseAddress) }
            }
        }
        return rc == 0 ? q : nil
    }

    static func ristrettoMultiplyBase(_ n: [UInt8]) -> [UInt8] {
        _ = initialized
        var q = [UInt8](repeating: 0, count: 32)
        _ = q.withUnsafeMutableBufferPointer { out in
            n.withUnsafeBufferPointer { parley_zk_ristretto255_scalarmult_base(out.baseAddress, $0.baseAddress) }
        }
        return q
    }

    static func scalarReduce(_ wide: [UInt8]) -> [UInt8] {
        precondition(wide.count == 64, "caller passes 64 bytes")
        var r = [UInt8](repeating: 0, count: 32)
        r.withUnsafeMutableBufferPointer { out in
            wide.withUnsafeBufferPointer { parley_zk_ristretto255_scalar_reduce(out.baseAddress, $0.baseAddress) }
        }
        return r
    }

    /// 1 / `s`; `nil` for zero.
    static func scalarInvert(_ s: [UInt8]) -> [UInt8]? {
        var r = [UInt8](repeating: 0, count: 32)
        let rc = r.withUnsafeMutableBufferPointer { out in
            s.withUnsafeBufferPointer { parley_zk_ristretto255_scalar_invert(out.baseAddress, $0.baseAddress) }
        }
        return rc == 0 ? r : nil
    }

    static func scalarNegate(_ s: [UInt8]) -> [UInt8] {
        var r = [UInt8](repeating: 0, count: 32)
        r.withUnsafeMutableBufferPointer { out in
            s.withUnsafeBufferPointer { parley_zk_ristretto255_scalar_negate(out.baseAddress, $0.baseAddress) }
        }
        return r
    }

    static func scalarAdd(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { scalarBinary(a, b, parley_zk_ristretto255_scalar_add) }
    static func scalarSub(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { scalarBinary(a, b, parley_zk_ristretto255_scalar_sub) }
    static func scalarMul(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { scalarBinary(a, b, parley_zk_ristretto255_scalar_mul) }

    /// The defined ones of the eight "positive" field elements whose Elligator image is `point` (32 bytes each), or
    /// `nil` when `point` is not a valid encoding.
    static func elligatorInverse(_ point: [UInt8]) -> [[UInt8]?]? {
        var candidates = [UInt8](repeating: 0, count: 8 * 32)
        var defined = [UInt8](repeating: 0, count: 8)
        let rc = candidates.withUnsafeMutableBufferPointer { out in
            defined.withUnsafeMutableBufferPointer { flags in
                point.withUnsafeBufferPointer {
                    parley_zk_ristretto255_elligator_inverse(out.baseAddress, flags.baseAddress, $0.baseAddress)
                }
            }
        }
        guard rc == 0 else { return nil }
        return (0..<8).map { defined[$0] == 1 ? Array(candidates[($0 * 32)..<($0 * 32 + 32)]) : nil }
    }

    private static func binary(
        _ p: [UInt8], _ q: [UInt8], _ operation: (UnsafeMutablePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?) -> Int32
    ) -> [UInt8] {
        var r = [UInt8](repeating: 0, count: 32)
        _ = r.withUnsafeMutableBufferPointer { out in
            p.withUnsafeBufferPointer { p in q.withUnsafeBufferPointer { operation(out.baseAddress, p.baseAddress, $0.baseAddress) } }
        }
        return r
    }

    private static func scalarBinary(
        _ a: [UInt8], _ b: [UInt8], _ operation: (UnsafeMutablePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?) -> Void
    ) -> [UInt8] {
        var r = [UInt8](repeating: 0, count: 32)
        r.withUnsafeMutableBufferPointer { out in
            a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { operation(out.baseAddress, a.baseAddress, $0.baseAddress) } }
        }
        return r
    }
}
