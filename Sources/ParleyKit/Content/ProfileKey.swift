import Crypto
import Foundation

/// An account's profile key: 32 random bytes its devices share with the account's contacts inside encrypted content
/// (``DataMessage/profileKey``), as Signal's clients do.
///
/// Whoever holds it can derive the account's unidentified access key (``accessKey``), which the server checks before it
/// accepts a sealed-sender message for the account without knowing who sends it. Rotating the key (after blocking
/// someone) shuts out everyone who only knows the old one: ``AccountManager/rotateProfileKey()``.
public struct ProfileKey: Sendable, Equatable {
    /// Bytes in a profile key.
    public static let length = 32
    /// Bytes in an unidentified access key.
    public static let accessKeyLength = 16

    /// The key's 32 bytes.
    public let bytes: Data

    /// The key in `bytes`.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` unless `bytes` is 32 bytes long.
    public init(bytes: Data) throws {
        guard bytes.count == Self.length else {
            throw ParleyError.invalidArgument("a profile key is \(Self.length) bytes, not \(bytes.count)")
        }
        self.bytes = bytes
    }

    /// A new random key.
    public static func generate() -> ProfileKey {
        var generator = SystemRandomNumberGenerator()
        // Sound: 32 bytes were just made.
        return try! ProfileKey(bytes: Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    }

    /// The unidentified access key, derived as Signal derives it: AES-256-GCM under the profile key, with a nonce of
    /// 12 zero bytes, over 16 zero bytes; the first 16 bytes of the ciphertext (the tag is dropped).
    public var accessKey: Data {
        // Sound: the key is 32 bytes and the nonce 12, both checked by construction.
        let sealed = try! AES.GCM.seal(
            Data(count: Self.accessKeyLength), using: SymmetricKey(data: bytes),
            nonce: try! AES.GCM.Nonce(data: Data(count: 12)))
        return Data(sealed.ciphertext.prefix(Self.accessKeyLength))
    }
}
