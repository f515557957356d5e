import Foundation

/// How a PIN backup's key is stretched: the algorithm, its salt and its cost, stored beside the backup so that
/// every backup restores with the parameters it was made with.
///
/// ```json
/// { "algorithm": "argon2id", "salt": "q83vASNFZ4mrze8BI0VniQ==", "opsLimit": 2, "memLimit": 67108864 }
/// { "algorithm": "pbkdf2-sha256", "salt": "q83vASNFZ4mrze8BI0VniQ==", "iterations": 100000 }
/// ```
public struct BackupKDFParameters: Codable, Sendable, Equatable {
    /// The stretch algorithms.
    public enum Algorithm: String, Codable, Sendable, CaseIterable {
        /// Argon2id 1.3 (libsodium `crypto_pwhash`): what new backups use.
        case argon2id
        /// PBKDF2-HMAC-SHA256 at seed 004's cost, applied to the OPRF output (`parley backup create --kdf pbkdf2`); seed
        /// 004's own backups, PBKDF2 over the bare PIN, are not a Parley format.
        case pbkdf2SHA256 = "pbkdf2-sha256"
    }

    /// What the client hashed the PIN with before blinding it (``pinInput``), which the restoring client must know.
    public enum PINInput: String, Codable, Sendable, CaseIterable {
        /// The account's plain registered name, lowercased: a backup restored by that name
        /// (`POST /v1/backup/{name}/evaluate`). What backups made before accounts went without names use.
        case registeredName
        /// The account id (lowercase UUID): a backup restored by account id, which a new machine finds from the
        /// username's hash (`GET /v1/accounts/username_hash/{hash}`). The server never learns a name for it.
        case accountId
    }

    /// Salt length in bytes.
    public static let saltLength = 16
    /// The Argon2id passes accepted: 1 (libsodium's minimum) to 16.
    public static let opsLimitRange: ClosedRange<UInt64> = 1...16
    /// The Argon2id memory accepted, in bytes: 8 KiB (libsodium's minimum) to 1 GiB.
    public static let memLimitRange: ClosedRange<UInt64> = 8192...(1 << 30)
    /// The PBKDF2 iterations accepted.
    public static let iterationsRange: ClosedRange<UInt32> = 1...10_000_000

    /// The algorithm.
    public let algorithm: Algorithm
    /// The random salt, base64 (``saltLength`` bytes).
    public let salt: String
    /// Argon2id passes (``Algorithm/argon2id`` only).
    public let opsLimit: UInt64?
    /// Argon2id memory in bytes (``Algorithm/argon2id`` only).
    public let memLimit: UInt64?
    /// PBKDF2 iterations (``Algorithm/pbkdf2SHA256`` only).
    public let iterations: UInt32?
    /// What the PIN was hashed with; absent means ``PINInput/registeredName`` (backups from before the field).
    public let pinInput: PINInput?

    /// ``pinInput``, absent read as ``PINInput/registeredName``.
    public var effectivePINInput: PINInput { pinInput ?? .registeredName }

    /// Parameters as they are, unchecked; ``validationProblem`` says whether they are usable.
    public init(
        algorithm: Algorithm, salt: String, opsLimit: UInt64? = nil, memLimit: UInt64? = nil, iterations: UInt32? = nil,
        pinInput: PINInput? = nil
    ) {
        self.pinInput = pinInput
        self.algorithm = algorithm
        self.salt = salt
        self.opsLimit = opsLimit
        self.memLimit = memLimit
        self.iterations = iterations
    }

    /// Argon2id with `salt`, `opsLimit` passes over `memLimit` bytes.
    public static func argon2id(salt: [UInt8], opsLimit: UInt64, memLimit: UInt64, pinInput: PINInput? = nil) -> BackupKDFParameters {
        BackupKDFParameters(
            algorithm: .argon2id, salt: Data(salt).base64EncodedString(), opsLimit: opsLimit, memLimit: memLimit, pinInput: pinInput)
    }

    /// PBKDF2-HMAC-SHA256 with `salt` and `iterations`.
    public static func pbkdf2SHA256(salt: [UInt8], iterations: UInt32, pinInput: PINInput? = nil) -> BackupKDFParameters {
        BackupKDFParameters(algorithm: .pbkdf2SHA256, salt: Data(salt).base64EncodedString(), iterations: iterations, pinInput: pinInput)
    }

    /// These parameters with the PIN hashed with `input`.
    public func with(pinInput input: PINInput) -> BackupKDFParameters {
        BackupKDFParameters(
            algorithm: algorithm, salt: salt, opsLimit: opsLimit, memLimit: memLimit, iterations: iterations, pinInput: input)
    }

    /// The decoded salt, or `nil` when it is not base64 of ``saltLength`` bytes.
    public var saltBytes: [UInt8]? {
        guard salt.utf8.count <= 64, let bytes = Data(base64Encoded: salt), bytes.count == Self.saltLength else { return nil }
        return Array(bytes)
    }

    /// Why these parameters cannot be used, or `nil` when they can: a malformed salt, a cost outside the accepted
    /// ranges (which bound what a restore can be made to spend), or a field of the other algorithm.
    public var validationProblem: String? {
        guard saltBytes != nil else { return "salt must be base64 of \(Self.saltLength) bytes" }
        switch algorithm {
        case .argon2id:
            guard let opsLimit, Self.opsLimitRange.contains(opsLimit), let memLimit, Self.memLimitRange.contains(memLimit),
                iterations == nil
            else { return "argon2id needs opsLimit 1…16 and memLimit 8192…1073741824 bytes, and no iterations" }
        case .pbkdf2SHA256:
            guard let iterations, Self.iterationsRange.contains(iterations), opsLimit == nil, memLimit == nil else {
                return "pbkdf2-sha256 needs iterations 1…10000000, and no opsLimit or memLimit"
            }
        }
        return nil
    }
}
