import CryptoExtras
import Foundation

/// What a group member encrypts for the group's server-stored state, under the group's ``GroupSecretParams``: member
/// service ids, their profile keys, and the group's attributes ("blobs": title, description, avatar, timer).
///
/// Blobs are AES-256-GCM-SIV under the group's blob key, with a 12-byte nonce squeezed from the randomness:
/// `ciphertext ‖ tag ‖ nonce ‖ 0x00`; the plaintext inside carries a big-endian 4-byte padding length first and that
/// many padding bytes last (LibSignalClient's `encryptBlob` pads with none).
public final class ClientZkGroupCipher: Sendable {
    let groupSecretParams: GroupSecretParams

    /// A cipher for the group whose secrets are `groupSecretParams`.
    public init(groupSecretParams: GroupSecretParams) {
        self.groupSecretParams = groupSecretParams
    }

    // MARK: Service ids

    /// `serviceId` encrypted for this group.
    public func encrypt(_ serviceId: ServiceId) throws -> UuidCiphertext {
        let (e1, e2) = groupSecretParams.serviceIdKeys.encrypt(m1: ServiceIdPoints.m1(serviceId), m2: ServiceIdPoints.m2(serviceId))
        return UuidCiphertext(e1: e1, e2: e2)
    }

    /// The service id `uuidCiphertext` holds.
    /// - Throws: ``SignalError/verificationFailed(_:)`` when it was not encrypted under this group's key.
    public func decrypt(_ uuidCiphertext: UuidCiphertext) throws -> ServiceId {
        guard let (m1, m2) = groupSecretParams.serviceIdKeys.decryptToPoints(e1: uuidCiphertext.e1, e2: uuidCiphertext.e2),
            let uuidBytes = Lizard.decode(m2)
        else { throw SignalError.verificationFailed("the ciphertext is not a service id encrypted for this group") }
        let uuid = UUID(zkgroupBytes: uuidBytes)
        let aci = Aci(fromUUID: uuid)
        if ServiceIdPoints.m1(aci) == m1 { return aci }
        let pni = Pni(fromUUID: uuid)
        if ServiceIdPoints.m1(pni) == m1 { return pni }
        throw SignalError.verificationFailed("the ciphertext is not a service id encrypted for this group")
    }

    // MARK: Profile keys

    /// `profileKey`, belonging to `userId`, encrypted for this group.
    public func encryptProfileKey(profileKey: ProfileKey, userId: Aci) throws -> ProfileKeyCiphertext {
        let uuid = [UInt8](userId.serviceIdBinary)
        let (e1, e2) = groupSecretParams.profileKeyKeys.encrypt(
            m1: ProfileKeyPoints.m3(profileKey.contents, aciUUID: uuid), m2: ProfileKeyPoints.m4(profileKey.contents))
        return ProfileKeyCiphertext(e1: e1, e2: e2)
    }

    /// The profile key `profileKeyCiphertext` holds for `userId`.
    /// - Throws: ``SignalError/verificationFailed(_:)`` when it is not `userId`'s profile key encrypted for this group.
    public func decryptProfileKey(profileKeyCiphertext: ProfileKeyCiphertext, userId: Aci) throws -> ProfileKey {
        let failure = SignalError.verificationFailed("the ciphertext is not a profile key of this member encrypted for this group")
        guard
            let (m3, m4) = groupSecretParams.profileKeyKeys.decryptToPoints(e1: profileKeyCiphertext.e1, e2: profileKeyCiphertext.e2),
            let candidates = NativeCrypto.elligatorInverse(m4.bytes)
        else { throw failure }
        // M4 hides bit 0 and the top two bits of the key: each of the eight settings of each candidate is tried against
        // M3, which binds the key to its owner. Exactly one must match.
        let uuid = [UInt8](userId.serviceIdBinary)
        var found: [UInt8]? = nil
        var matches = 0
        for candidate in candidates.compactMap({ $0 }) {
            for bits in 0..<8 {
                var key = candidate
                if bits & 4 != 0 { key[0] |= 0x01 }
                if bits & 2 != 0 { key[31] |= 0x80 }
                if bits & 1 != 0 { key[31] |= 0x40 }
                if ProfileKeyPoints.m3(key, aciUUID: uuid) == m3 {
                    found = key
                    matches += 1
                }
            }
        }
        guard matches == 1, let found else { throw failure }
        return ProfileKey(bytes: found)
    }

    // MARK: Blobs

    /// `plaintext` encrypted for this group with fresh randomness.
    public func encryptBlob(plaintext: Data) throws -> Data {
        try encryptBlob(randomness: Randomness.generate(), plaintext: plaintext)
    }

    /// `plaintext` encrypted for this group, its nonce squeezed from `randomness`, without padding.
    public func encryptBlob(randomness: Randomness, plaintext: Data) throws -> Data {
        try encryptBlobWithPadding(randomness: randomness, plaintext: plaintext, paddingLength: 0)
    }

    /// `plaintext` followed by `paddingLength` zero bytes, encrypted for this group (what hides an attribute's length).
    public func encryptBlobWithPadding(randomness: Randomness, plaintext: Data, paddingLength: UInt32) throws -> Data {
        var sho = ShoHmacSha256(label: "Signal_ZKGroup_20200424_Random_GroupSecretParams_EncryptBlob", data: randomness.array)
        let nonce = sho.squeezeAndRatchet(12)
        var padded = Data(ShoHmacSha256.bigEndian(UInt64(paddingLength)).suffix(4))
        padded += plaintext
        padded += Data(count: Int(paddingLength))
        let box = try AES.GCM._SIV.seal(
            padded, using: SymmetricKey(data: groupSecretParams.blobKey), nonce: try AES.GCM._SIV.Nonce(data: nonce))
        return box.ciphertext + box.tag + Data(nonce) + Data([0])
    }

    /// The plaintext of a blob encrypted for this group, its padding removed.
    /// - Throws: ``SignalError/verificationFailed(_:)`` when it does not decrypt under this group's key, or its padding
    ///   length is longer than what it holds.
    public func decryptBlob(blobCiphertext: Data) throws -> Data {
        let bytes = [UInt8](blobCiphertext)
        // ciphertext (at least the 4-byte padding length) ‖ 16-byte tag ‖ 12-byte nonce ‖ reserved byte (not checked).
        guard bytes.count >= 4 + 16 + 12 + 1 else { throw SignalError.verificationFailed("the blob is too short") }
        let body = bytes.dropLast()
        let nonce = Array(body.suffix(12))
        let sealed = body.dropLast(12)
        let padded: Data
        do {
            padded = try AES.GCM._SIV.open(
                try AES.GCM._SIV.SealedBox(nonce: AES.GCM._SIV.Nonce(data: nonce), ciphertext: sealed.dropLast(16), tag: sealed.suffix(16)),
                using: SymmetricKey(data: groupSecretParams.blobKey))
        } catch {
            throw SignalError.verificationFailed("the blob does not decrypt under this group's key")
        }
        let plain = [UInt8](padded)
        guard plain.count >= 4 else { throw SignalError.verificationFailed("the blob holds no padding length") }
        let padding = Int(UInt32(plain[0]) << 24 | UInt32(plain[1]) << 16 | UInt32(plain[2]) << 8 | UInt32(plain[3]))
        guard padding <= plain.count - 4 else { throw SignalError.verificationFailed("the blob's padding is longer than the blob") }
        return Data(plain[4..<(plain.count - padding)])
    }
}
