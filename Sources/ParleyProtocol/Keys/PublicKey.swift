import Crypto
import Foundation

/// A Curve25519 public key as Signal serializes it: `0x05` followed by the 32-byte X25519 u-coordinate.
///
/// ```swift
/// let key = try PublicKey(bundleBytes)          // 33 bytes, type 0x05
/// let ok = try key.verifySignature(message: m, signature: s)
/// ```
public struct PublicKey: Sendable, Hashable, CustomStringConvertible {
    /// The DJB key type byte that prefixes every serialized Curve25519 key.
    public static let djbType: UInt8 = 0x05

    let agreementKey: Curve25519.KeyAgreement.PublicKey
    /// The 32-byte X25519 u-coordinate, without the type byte.
    let rawKey: [UInt8]

    /// Parses a serialized key (33 bytes, `0x05` first).
    /// - Throws: ``SignalError/invalidKey(_:)`` for a wrong length or an unknown type byte.
    public init<Bytes: ContiguousBytes>(_ bytes: Bytes) throws {
        let raw = bytes.byteArray
        guard let type = raw.first else { throw SignalError.invalidKey("empty public key") }
        guard type == Self.djbType else {
            throw SignalError.invalidKey("unknown public key type 0x\(String(type, radix: 16))")
        }
        guard raw.count == 33 else { throw SignalError.invalidKey("public key is \(raw.count) bytes, expected 33") }
        try self.init(rawKey: Array(raw[1...]))
    }

    init(rawKey: [UInt8]) throws {
        guard rawKey.count == 32 else { throw SignalError.invalidKey("raw public key is \(rawKey.count) bytes, expected 32") }
        do {
            agreementKey = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: rawKey)
        } catch {
            throw SignalError.invalidKey("not an X25519 public key")
        }
        self.rawKey = rawKey
    }

    init(agreementKey: Curve25519.KeyAgreement.PublicKey) {
        self.agreementKey = agreementKey
        self.rawKey = Array(agreementKey.rawRepresentation)
    }

    /// The 32-byte X25519 u-coordinate, without the type byte (libsignal's `keyBytes`).
    public var keyBytes: Data { Data(rawKey) }

    /// The 33-byte serialized form (`0x05` ‖ u).
    public func serialize() -> Data {
        var data = Data(capacity: 33)
        data.append(Self.djbType)
        data.append(contentsOf: rawKey)
        return data
    }

    /// The serialized form as an array, for the protocol's own byte strings.
    var serializedBytes: [UInt8] { [Self.djbType] + rawKey }

    /// Whether `signature` is a valid XEdDSA signature of `message` by the matching private key.
    ///
    /// Returns `false` for any malformed signature; it never traps.
    public func verifySignature(message: some ContiguousBytes, signature: some ContiguousBytes) throws -> Bool {
        XEdDSA.verify(signature: signature.byteArray, publicKey: rawKey, message: message.byteArray)
    }

    /// Byte order comparison of the serialized forms, as libsignal's `PublicKey.compare`.
    public func compare(_ other: PublicKey) -> Int {
        for (a, b) in zip(rawKey, other.rawKey) where a != b { return a < b ? -1 : 1 }
        return 0
    }

    public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool { lhs.rawKey == rhs.rawKey }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawKey) }

    /// The serialized key in hexadecimal.
    public var description: String { serializedBytes.map { String(format: "%02x", $0) }.joined() }
}
