import CParleyPassword
import Crypto
import Foundation
import Synchronization

/// Salted slow hashes (Argon2id, libsodium) of device credentials, with a bounded cache of
/// recent successful checks so that authenticated requests do not each pay the slow hash.
public final class PasswordHasher: Sendable {
    /// How costly each hash is.
    public enum Strength: Int32, Sendable {
        /// libsodium's interactive limits (64 MiB, about 0.1 s): the default.
        case interactive = 0
        /// The minimum libsodium allows: for tests only.
        case minimal = 1
    }

    private let strength: Strength
    private static let cacheCapacity = 10_000
    /// Guards SHA-256 digests of (stored hash ‖ presented password) that verified.
    private let verified = Mutex<Set<Data>>([])

    /// A hasher with the given cost.
    public init(strength: Strength = .interactive) { self.strength = strength }

    /// Hashes a new credential.
    func hash(_ password: [UInt8]) throws -> String {
        var buffer = [CChar](repeating: 0, count: parley_password_hash_length())
        let rc = buffer.withUnsafeMutableBufferPointer { out in
            password.withUnsafeBufferPointer { parley_password_hash(out.baseAddress, $0.baseAddress, $0.count, strength.rawValue) }
        }
        guard rc == 0 else { throw ServerError.internalFailure("password hashing failed") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` matches `storedHash`.
    func verify(_ password: [UInt8], against storedHash: String) -> Bool {
        let key = Data(SHA256.hash(data: Array(storedHash.utf8) + [0] + password))
        if verified.withLock({ $0.contains(key) }) { return true }
        let matches = storedHash.withCString { hash in
            password.withUnsafeBufferPointer { parley_password_verify(hash, $0.baseAddress, $0.count) == 0 }
        }
        if matches {
            verified.withLock { cache in
                if cache.count >= Self.cacheCapacity { cache.removeAll(keepingCapacity: true) }
                cache.insert(key)
            }
        }
        return matches
    }
}
