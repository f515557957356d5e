import Foundation

/// A username's 32-byte hash (a compressed ristretto255 point), what the server stores and looks up instead of the
/// name.
public typealias UsernameHash = Data

/// A username, `nickname.discriminator` (`alice.42`), with the hash the server keeps in its place, proofs of knowing
/// what a hash opens to, candidates for a nickname and username links. LibSignalClient's `Username`, with its
/// hashes, proofs and link bytes.
///
/// The hash is case-insensitive (`Alice.42` and `alice.42` share one) while ``value`` keeps the case it was given.
public struct Username: Sendable {
    /// The username as given, `nickname.discriminator`.
    public let value: String
    /// Its hash, 32 bytes.
    public let hash: UsernameHash

    /// The parsed parts (kept for the proof).
    let parts: UsernameParts

    /// The username `s` spells.
    /// - Throws: ``SignalError/missingSeparator(_:)``, a nickname error (``SignalError/nicknameCannotBeEmpty(_:)``,
    ///   ``SignalError/nicknameCannotStartWithDigit(_:)``, ``SignalError/badNicknameCharacter(_:)``,
    ///   ``SignalError/nicknameTooLong(_:)``) or a discriminator error (`usernameDiscriminator…`,
    ///   ``SignalError/badDiscriminatorCharacter(_:)``).
    public init<S: StringProtocol>(_ s: S) throws {
        try self.init(parts: try UsernameParts(String(s)), value: String(s))
    }

    /// The username `nickname.discriminator`, its nickname's length within `lengthRange`.
    /// - Throws: as ``init(_:)``, and ``SignalError/nicknameTooShort(_:)`` or ``SignalError/nicknameTooLong(_:)`` outside
    ///   the range.
    public init(nickname: String, discriminator: String, withValidLengthWithin lengthRange: ClosedRange<UInt32>) throws {
        let parts = try UsernameParts(nickname: nickname, discriminator: discriminator)
        try UsernameParts.checkLength(nickname, within: lengthRange)
        try self.init(parts: parts, value: "\(nickname).\(discriminator)")
    }

    /// The username a link holds: `bytes` (what the server keeps for the link) decrypted under `randomness` (the
    /// entropy the link carries).
    /// - Throws: ``SignalError/usernameLinkInvalidEntropyDataLength(_:)``, ``SignalError/usernameLinkInvalid(_:)``, or as
    ///   ``init(_:)`` when what it holds is no username.
    public init<LinkBytes: ContiguousBytes, RandBytes: ContiguousBytes>(
        fromLink bytes: LinkBytes, withRandomness randomness: RandBytes
    ) throws {
        let entropy = randomness.withUnsafeBytes { Array($0) }
        let encrypted = bytes.withUnsafeBytes { Array($0) }
        try self.init(try UsernameLink.decrypt(encrypted, entropy: entropy))
    }

    private init(parts: UsernameParts, value: String) throws {
        self.parts = parts
        self.value = value
        hash = Data(UsernameHashing.hash(try UsernameHashing.scalars(of: parts)).bytes)
    }

    /// A proof that whoever made it knows the username behind ``hash`` (the three scalars that open it), for the server
    /// to check without learning the name; its nonces come from `randomness` (fresh when `nil`).
    public func generateProof(withRandomness randomness: Randomness? = nil) -> Data {
        do {
            return Data(try UsernameHashing.proof(parts, randomness: (randomness ?? Randomness.generate()).array))
        } catch {
            preconditionFailure("a parsed username always proves: \(error)")
        }
    }

    /// A link to this username: fresh entropy (or `previousEntropy`, to keep an existing link's secret) and the
    /// encrypted username the server keeps under the link's id. Returns `(entropy, encryptedUsername)`.
    /// - Throws: ``SignalError/usernameLinkInvalidEntropyDataLength(_:)`` when `previousEntropy` is not 32 bytes.
    public func createLink(previousEntropy: Data? = nil) throws -> (Data, Data) {
        let (entropy, encrypted) = try UsernameLink.encrypt(value, entropy: previousEntropy.map { Array($0) })
        return (Data(entropy), Data(encrypted))
    }

    /// Checks that `proof` proves knowledge of an opening of `hash` (what ``generateProof(withRandomness:)`` makes).
    /// - Throws: ``SignalError/verificationFailed(_:)`` when it does not (or the hash is no 32-byte point).
    public static func verify(proof: Data, forHash hash: Data) throws {
        guard UsernameHashing.verify(proof: Array(proof), hash: Array(hash)) else {
            throw SignalError.verificationFailed("the username proof does not match the hash")
        }
    }

    /// Whether `bytes` could be a username's hash: 32 bytes encoding a ristretto255 point other than the identity
    /// (Parley's addition, for a server that checks what it is asked to store).
    public static func isHash(_ bytes: some Collection<UInt8>) -> Bool {
        guard let point = RistrettoPoint(encoding: bytes) else { return false }
        return point != .identity
    }

    /// Twenty usernames for `nickname` with random discriminators to offer a user (4 of two digits, 3 each of three
    /// and four, then 2 each of five to nine), for the server to take the first free one.
    /// - Throws: a nickname error, ``SignalError/nicknameTooShort(_:)`` or ``SignalError/nicknameTooLong(_:)``.
    public static func candidates(from nickname: String, withValidLengthWithin lengthRange: ClosedRange<UInt32> = 3...32)
        throws -> [Username]
    {
        try UsernameParts.checkPrefix(nickname)
        _ = try UsernameParts.nicknameCodes(nickname)
        try UsernameParts.checkLength(nickname, within: lengthRange)
        let counts = [4, 3, 3, 2, 2, 2, 2, 2]
        var generator = SystemRandomNumberGenerator()
        var usernames: [Username] = []
        for (digits, count) in zip(2...9, counts) {
            let lower = digits == 2 ? 1 : Self.power(10, digits - 1)
            var chosen = Set<UInt64>()
            while chosen.count < count { chosen.insert(UInt64.random(in: lower..<Self.power(10, digits), using: &generator)) }
            for discriminator in chosen.sorted() {
                let parts = UsernameParts(checkedNickname: nickname, discriminator: discriminator)
                usernames.append(try Username(parts: parts, value: parts.value))
            }
        }
        return usernames
    }

    private static func power(_ base: UInt64, _ exponent: Int) -> UInt64 { (0..<exponent).reduce(1) { value, _ in value * base } }
}

extension Username: CustomStringConvertible {
    /// ``value``.
    public var description: String { value }
}

extension Username: Equatable {
    /// Whether both are the same spelling (and so have the same hash).
    public static func == (lhs: Username, rhs: Username) -> Bool { lhs.value == rhs.value && lhs.hash == rhs.hash }
}
