import Crypto
import Foundation

/// A username's hash and its proof: the hash is `s₁·G₁ + s₂·G₂ + s₃·G₃` on ristretto255 for three fixed points and
/// three scalars — SHA-512 of `nickname ‖ 0x00 ‖ discriminator` (big-endian u64), the nickname in base 37 (its first
/// character in base 27, since no nickname starts with a digit), the discriminator — and the proof is a poksho proof
/// of knowledge of three scalars that open the hash this way, bound to it. (It does not prove that the scalars come
/// from a username: anyone can open a point of their own making. What it stops is confirming a hash one cannot open,
/// such as someone else's.) As libsignal's `usernames` crate, byte for byte.
enum UsernameHashing {
    /// G₁, G₂, G₃: the first three points of the SHO-HMAC-SHA256 transcript labelled
    /// `Signal_Username_20230130_Constant_Points_Generate` (libsignal ships them as constants; `UsernameTests` checks
    /// they agree).
    static let basePoints: [RistrettoPoint] = {
        var sho = ShoHmacSha256(label: "Signal_Username_20230130_Constant_Points_Generate", data: [UInt8]())
        return (0..<3).map { _ in sho.point() }
    }()

    /// The statement `username_hash = username_sha_scalar·G1 + nickname_scalar·G2 + discriminator_scalar·G3`.
    static let statement: PokshoStatement = {
        var statement = PokshoStatement()
        statement.add(
            "username_hash",
            [("username_sha_scalar", "G1"), ("nickname_scalar", "G2"), ("discriminator_scalar", "G3")])
        return statement
    }()

    static let scalarNames = ["username_sha_scalar", "nickname_scalar", "discriminator_scalar"]

    /// The three scalars of `parts` (the nickname lower-cased).
    static func scalars(of parts: UsernameParts) throws -> [RistrettoScalar] {
        // ASCII lower case only (the parts hold nothing else).
        let nickname = Array(parts.nickname.utf8).map { (65...90).contains($0) ? $0 + 32 : $0 }
        var sha = SHA512()
        sha.update(data: nickname + [0] + withUnsafeBytes(of: parts.discriminator.bigEndian) { Array($0) })
        let shaScalar = RistrettoScalar.reducing(Array(sha.finalize()))
        return [shaScalar, nicknameScalar(try UsernameParts.nicknameCodes(parts.nickname)), scalar(parts.discriminator)]
    }

    /// The nickname's codes read as a number: the first in base 27, each later one in base 37.
    static func nicknameScalar(_ codes: [UInt8]) -> RistrettoScalar {
        var value = scalar(0)
        for code in codes.dropFirst().reversed() { value = value * scalar(37) + scalar(UInt64(code)) }
        return value * scalar(27) + scalar(UInt64(codes.first ?? 0))
    }

    /// `value` as a scalar.
    static func scalar(_ value: UInt64) -> RistrettoScalar {
        let bytes = withUnsafeBytes(of: value.littleEndian) { Array($0) } + [UInt8](repeating: 0, count: 24)
        guard let scalar = RistrettoScalar(canonical: bytes) else { preconditionFailure("a u64 is below the group order") }
        return scalar
    }

    /// The hash point of `scalars`.
    static func hash(_ scalars: [RistrettoScalar]) -> RistrettoPoint {
        zip(scalars, basePoints).map { $0 * $1 }.reduce(RistrettoPoint.identity, +)
    }

    /// The points the statement names, for `hash`.
    static func points(hash: RistrettoPoint) -> [String: RistrettoPoint] {
        ["G1": basePoints[0], "G2": basePoints[1], "G3": basePoints[2], "username_hash": hash]
    }

    /// The proof for `parts`, its nonces drawn from `randomness`.
    static func proof(_ parts: UsernameParts, randomness: [UInt8]) throws -> [UInt8] {
        let scalars = try scalars(of: parts)
        let hash = hash(scalars)
        return try statement.prove(
            scalars: Dictionary(uniqueKeysWithValues: zip(scalarNames, scalars)), points: points(hash: hash),
            message: hash.bytes, randomness: randomness)
    }

    /// Whether `proof` proves knowledge of a username whose hash is `hash`.
    static func verify(proof: [UInt8], hash: [UInt8]) -> Bool {
        guard hash.count == 32, let point = RistrettoPoint(encoding: hash) else { return false }
        return statement.verify(proof: proof, points: points(hash: point), message: hash)
    }
}
