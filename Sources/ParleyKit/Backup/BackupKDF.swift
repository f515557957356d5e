import Crypto
import CryptoExtras
import Foundation
import ParleyAPI
import ParleyPassword

/// Turns the PIN's OPRF output into a backup's keys: a slow stretch (Argon2id; or PBKDF2-SHA256 with seed 004's
/// 100,000 iterations, which Parley backups may still name — applied to the OPRF output, so seed 004's own
/// backups, PBKDF2 over the bare PIN, are not readable) with the parameters stored beside the backup, then
/// HKDF-SHA256 into the blob's encryption key and the verifier a restore presents.
///
/// The stretch is the second line of defence: the first is the OPRF, without whose server key no guess can be
/// tested at all. Should the key file and the database leak together, each guess still costs one stretch.
public enum BackupKDF {
    /// The cost of an Argon2id stretch.
    public struct Argon2Limits: Sendable, Equatable {
        /// Passes over memory.
        public var opsLimit: UInt64
        /// Memory in bytes.
        public var memLimit: UInt64

        /// Limits of `opsLimit` passes over `memLimit` bytes.
        public init(opsLimit: UInt64, memLimit: UInt64) {
            self.opsLimit = opsLimit
            self.memLimit = memLimit
        }

        /// libsodium's interactive limits (2 passes over 64 MiB): what backups use.
        public static let interactive = Argon2Limits(opsLimit: 2, memLimit: 64 << 20)
        /// libsodium's minimum (1 pass over 8 KiB): for tests only.
        public static let minimum = Argon2Limits(opsLimit: 1, memLimit: 8192)
    }

    /// The keys a PIN (through the OPRF) and the parameters give.
    public struct Keys: Sendable {
        /// AES-256-GCM key of the blob.
        public let encryptionKey: SymmetricKey
        /// What a restore presents; the server keeps only its SHA-256.
        public let verifier: [UInt8]
    }

    /// PBKDF2 iterations of `--kdf pbkdf2` backups (seed 004's 100,000).
    public static let pbkdf2Iterations: UInt32 = 100_000

    /// Parameters for a new backup: `algorithm` with a fresh random salt, Argon2id at `argon2`.
    public static func newParameters(_ algorithm: BackupKDFParameters.Algorithm, argon2: Argon2Limits) -> BackupKDFParameters {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<BackupKDFParameters.saltLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
        switch algorithm {
        case .argon2id: return .argon2id(salt: salt, opsLimit: argon2.opsLimit, memLimit: argon2.memLimit)
        case .pbkdf2SHA256: return .pbkdf2SHA256(salt: salt, iterations: pbkdf2Iterations)
        }
    }

    /// The keys of `oprfOutput` under `parameters`: stretched to 32 bytes, then HKDF-SHA256 (no salt) with info
    /// `parley backup encryption` and `parley backup verifier`, 32 bytes each.
    ///
    /// - Throws: ``ParleyError/Backup/malformed(_:)`` for parameters outside ``ParleyAPI/BackupKDFParameters``' ranges (a
    ///   server cannot make a restore spend more than they allow) or a stretch that fails.
    public static func deriveKeys(from oprfOutput: [UInt8], parameters: BackupKDFParameters) throws -> Keys {
        if let problem = parameters.validationProblem { throw ParleyError.backup(.malformed("stretch parameters: \(problem)")) }
        guard let salt = parameters.saltBytes else { throw ParleyError.backup(.malformed("stretch parameters: salt")) }
        let stretched: [UInt8]
        switch parameters.algorithm {
        case .argon2id:
            guard let memory = Int(exactly: parameters.memLimit ?? 0),
                let output = Argon2id.derive(oprfOutput, salt: salt, opsLimit: parameters.opsLimit ?? 0, memLimit: memory)
            else { throw ParleyError.backup(.malformed("Argon2id refused its limits or ran out of memory")) }
            stretched = output
        case .pbkdf2SHA256:
            do {
                stretched = try KDF.Insecure.PBKDF2.deriveKey(
                    from: oprfOutput, salt: salt, using: .sha256, outputByteCount: 32,
                    unsafeUncheckedRounds: Int(parameters.iterations ?? 0)
                ).withUnsafeBytes { Array($0) }
            } catch {
                throw ParleyError.backup(.malformed("PBKDF2 failed"))
            }
        }
        let material = SymmetricKey(data: stretched)
        let encryptionKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: material, info: Array("parley backup encryption".utf8), outputByteCount: 32)
        let verifier = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: material, info: Array("parley backup verifier".utf8), outputByteCount: 32
        ).withUnsafeBytes { Array($0) }
        return Keys(encryptionKey: encryptionKey, verifier: verifier)
    }
}
