import Crypto
import Foundation

/// A profile key (32 bytes): the key of an account's encrypted profile, shared with contacts and group members.
public final class ProfileKey: ByteArray, @unchecked Sendable {
    /// Its length in bytes.
    public static let SIZE = 32

    /// The profile key `contents` holds.
    /// - Throws: ``SignalError/invalidType(_:)`` unless it is 32 bytes.
    public required init(contents: Data) throws {
        try super.init(newContents: contents, expectedLength: Self.SIZE)
    }

    init(bytes: [UInt8]) { super.init(checked: bytes) }

    /// The 16-byte access key for sealed-sender delivery that this profile key gives: AES-256-GCM under the profile key,
    /// with a zero nonce, of 16 zero bytes, the tag dropped.
    public func deriveAccessKey() -> Data {
        let key = SymmetricKey(data: contents)
        // A 12-byte zero nonce and a 16-byte input: both valid for AES-GCM, so sealing cannot fail.
        guard let nonce = try? AES.GCM.Nonce(data: [UInt8](repeating: 0, count: 12)),
            let sealed = try? AES.GCM.seal([UInt8](repeating: 0, count: 16), using: key, nonce: nonce)
        else { preconditionFailure("AES-GCM refused a fixed valid input") }
        return Data(sealed.ciphertext.prefix(16))
    }
}
