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

    /// A commitment to this key for its owner `userId`, which a server can keep and later issue profile-key credentials
    /// against without learning the key.
    public func getCommitment(userId: Aci) throws -> ProfileKeyCommitment {
        let uuid = [UInt8](userId.serviceIdBinary)
        return ProfileKeyCommitment.committing(
            key: contents, aciUUID: uuid, m3: ProfileKeyPoints.m3(contents, aciUUID: uuid), m4: ProfileKeyPoints.m4(contents)
        ).commitment
    }

    /// The public version string of this key for its owner `userId` (64 lowercase hex characters of a SHO over both),
    /// under which a profile is stored so that only holders of the key can ask for it.
    public func getProfileKeyVersion(userId: Aci) throws -> ProfileKeyVersion {
        var sho = ShoHmacSha256(
            label: "Signal_ZKGroup_20200424_ProfileKeyAndUid_ProfileKey_GetProfileKeyVersion",
            data: contents + [UInt8](userId.serviceIdBinary))
        let digits = Array("0123456789abcdef".utf8)
        return ProfileKeyVersion(bytes: sho.squeezeAndRatchet(32).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] })
    }

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
