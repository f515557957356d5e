import CParleyPassword

/// Argon2id (libsodium, through CParleyPassword): the KDF for secrets people type. The one Swift wrapper of the C
/// module's password functions; nothing else hands it pointers.
public enum Argon2id {
    /// Argon2id 1.3 of `password` with a 16-byte `salt`, `outputLength` bytes; `nil` when libsodium refuses the limits or
    /// runs out of memory.
    public static func derive(_ password: [UInt8], salt: [UInt8], opsLimit: UInt64, memLimit: Int, outputLength: Int = 32) -> [UInt8]? {
        guard salt.count == 16, outputLength > 0 else { return nil }
        var output = [UInt8](repeating: 0, count: outputLength)
        let rc = output.withUnsafeMutableBufferPointer { out in
            password.withUnsafeBufferPointer { input in
                salt.withUnsafeBufferPointer { salt in
                    parley_argon2id(out.baseAddress, out.count, input.baseAddress, input.count, salt.baseAddress, opsLimit, memLimit)
                }
            }
        }
        return rc == 0 ? output : nil
    }

    /// A self-describing Argon2id hash of `password` for storage (`$argon2id$…`), at libsodium's interactive strength
    /// (`strength` 0) or a test's minimum (1); `nil` when libsodium fails.
    public static func storageHash(of password: [UInt8], strength: Int32 = 0) -> String? {
        var buffer = [CChar](repeating: 0, count: parley_password_hash_length())
        let rc = buffer.withUnsafeMutableBufferPointer { out in
            password.withUnsafeBufferPointer { parley_password_hash(out.baseAddress, $0.baseAddress, $0.count, strength) }
        }
        guard rc == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` matches the stored hash `storageHash` (constant time in the hash's own comparison).
    public static func verify(_ password: [UInt8], against storageHash: String) -> Bool {
        storageHash.withCString { hash in
            password.withUnsafeBufferPointer { parley_password_verify(hash, $0.baseAddress, $0.count) == 0 }
        }
    }
}
