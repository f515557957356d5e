import CParleyPassword

/// The one place in ParleyKit that calls CParleyPassword (libsodium): Argon2id with an explicit salt and limits, and
/// the ristretto255 operations of the client's side of the backup OPRF. Nothing else in ParleyKit hands pointers to it.
enum BackupNative {
    /// Argon2id 1.3 of `password` with a 16-byte `salt`, 32 bytes.
    static func argon2id(_ password: [UInt8], salt: [UInt8], opsLimit: UInt64, memLimit: UInt64) throws -> [UInt8] {
        guard salt.count == 16, let memory = Int(exactly: memLimit) else { throw BackupError.malformed("Argon2id parameters") }
        var output = [UInt8](repeating: 0, count: 32)
        let rc = output.withUnsafeMutableBufferPointer { out in
            password.withUnsafeBufferPointer { input in
                salt.withUnsafeBufferPointer { salt in
                    parley_argon2id(out.baseAddress, out.count, input.baseAddress, input.count, salt.baseAddress, opsLimit, memory)
                }
            }
        }
        guard rc == 0 else { throw BackupError.malformed("Argon2id refused its limits or ran out of memory") }
        return output
    }

    /// The ristretto255 element 64 uniformly random bytes map to.
    static func element(fromHash hash: [UInt8]) throws -> [UInt8] {
        guard hash.count == 64 else { throw BackupError.malformed("hash to group needs 64 bytes") }
        var element = [UInt8](repeating: 0, count: 32)
        let rc = element.withUnsafeMutableBufferPointer { out in
            hash.withUnsafeBufferPointer { parley_ristretto255_from_hash(out.baseAddress, $0.baseAddress) }
        }
        guard rc == 0 else { throw BackupError.malformed("libsodium failed to initialise") }
        return element
    }

    /// A uniformly random non-zero scalar.
    static func randomScalar() throws -> [UInt8] {
        var scalar = [UInt8](repeating: 0, count: 32)
        let rc = scalar.withUnsafeMutableBufferPointer { parley_ristretto255_scalar_random($0.baseAddress) }
        guard rc == 0 else { throw BackupError.malformed("libsodium failed to initialise") }
        return scalar
    }

    /// 1 / `scalar` modulo the group order.
    static func inverse(of scalar: [UInt8]) throws -> [UInt8] {
        guard scalar.count == 32 else { throw BackupError.malformed("a scalar is 32 bytes") }
        var inverse = [UInt8](repeating: 0, count: 32)
        let rc = inverse.withUnsafeMutableBufferPointer { out in
            scalar.withUnsafeBufferPointer { parley_ristretto255_scalar_invert(out.baseAddress, $0.baseAddress) }
        }
        guard rc == 0 else { throw BackupError.malformed("the zero scalar has no inverse") }
        return inverse
    }

    /// `scalar` · `element`, or `nil` when `element` is not a ristretto255 encoding or the product is the identity.
    static func multiply(_ scalar: [UInt8], _ element: [UInt8]) -> [UInt8]? {
        guard scalar.count == 32, element.count == 32 else { return nil }
        var product = [UInt8](repeating: 0, count: 32)
        let rc = product.withUnsafeMutableBufferPointer { out in
            scalar.withUnsafeBufferPointer { n in
                element.withUnsafeBufferPointer { parley_ristretto255_scalarmult(out.baseAddress, n.baseAddress, $0.baseAddress) }
            }
        }
        return rc == 0 ? product : nil
    }
}
