import CParleyPassword

/// The ristretto255 group (libsodium, through CParleyPassword): the operations of the PIN backup's oblivious PRF, the
/// client's blinding and the server's evaluation. Elements and scalars are 32-byte encodings.
public enum Ristretto255 {
    /// The element 64 uniformly random bytes map to; `nil` when `hash` is not 64 bytes or libsodium failed to initialise.
    public static func element(fromHash hash: [UInt8]) -> [UInt8]? {
        guard hash.count == 64 else { return nil }
        var element = [UInt8](repeating: 0, count: 32)
        let rc = element.withUnsafeMutableBufferPointer { out in
            hash.withUnsafeBufferPointer { parley_ristretto255_from_hash(out.baseAddress, $0.baseAddress) }
        }
        return rc == 0 ? element : nil
    }

    /// Whether `element` is the canonical encoding of an element other than the identity.
    public static func isValidElement(_ element: [UInt8]) -> Bool {
        element.count == 32 && element.withUnsafeBufferPointer { parley_ristretto255_is_valid_point($0.baseAddress) } == 1
    }

    /// `scalar` · `element`, or `nil` when `element` is not an encoding or the product is the identity.
    public static func multiply(_ scalar: [UInt8], _ element: [UInt8]) -> [UInt8]? {
        guard scalar.count == 32, element.count == 32 else { return nil }
        var product = [UInt8](repeating: 0, count: 32)
        let rc = product.withUnsafeMutableBufferPointer { out in
            scalar.withUnsafeBufferPointer { n in
                element.withUnsafeBufferPointer { parley_ristretto255_scalarmult(out.baseAddress, n.baseAddress, $0.baseAddress) }
            }
        }
        return rc == 0 ? product : nil
    }

    /// A uniformly random non-zero scalar; `nil` when libsodium failed to initialise.
    public static func randomScalar() -> [UInt8]? {
        var scalar = [UInt8](repeating: 0, count: 32)
        let rc = scalar.withUnsafeMutableBufferPointer { parley_ristretto255_scalar_random($0.baseAddress) }
        return rc == 0 ? scalar : nil
    }

    /// 1 / `scalar` modulo the group order; `nil` for the zero scalar (or not 32 bytes).
    public static func inverse(of scalar: [UInt8]) -> [UInt8]? {
        guard scalar.count == 32 else { return nil }
        var inverse = [UInt8](repeating: 0, count: 32)
        let rc = inverse.withUnsafeMutableBufferPointer { out in
            scalar.withUnsafeBufferPointer { parley_ristretto255_scalar_invert(out.baseAddress, $0.baseAddress) }
        }
        return rc == 0 ? inverse : nil
    }

    /// 64 bytes reduced modulo the group order to a scalar; `nil` when `wide` is not 64 bytes.
    public static func reduce(_ wide: [UInt8]) -> [UInt8]? {
        guard wide.count == 64 else { return nil }
        var scalar = [UInt8](repeating: 0, count: 32)
        _ = scalar.withUnsafeMutableBufferPointer { out in
            wide.withUnsafeBufferPointer { parley_ristretto255_scalar_reduce(out.baseAddress, $0.baseAddress) }
        }
        return scalar
    }
}
