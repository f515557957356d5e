import Foundation

/// A group's secrets, derived from its master key: the group id, the key of its encrypted attributes ("blobs": title,
/// description, avatar, timer) and the two encryption key pairs of its member list (service ids and profile keys).
///
/// Serialized as 289 bytes: a reserved `0x00`, the master key, the group id, the blob key, then the service-id key
/// pair (a1, a2, A) and the profile-key key pair (b1, b2, B), each scalar and point 32 bytes.
public final class GroupSecretParams: ByteArray, @unchecked Sendable {
    static let size = 289

    let masterKey: [UInt8]
    let groupId: [UInt8]
    let blobKey: [UInt8]
    let serviceIdKeys: ZKGroupEncryptionKeyPair
    let profileKeyKeys: ZKGroupEncryptionKeyPair

    /// New secrets for a new group, from fresh randomness.
    public static func generate() throws -> GroupSecretParams {
        try generate(randomness: Randomness.generate())
    }

    /// New secrets for a new group from `randomness`: its master key is squeezed from it.
    public static func generate(randomness: Randomness) throws -> GroupSecretParams {
        var sho = ShoHmacSha256(label: "Signal_ZKGroup_20200424_Random_GroupSecretParams_Generate", data: randomness.array)
        return derive(masterKey: sho.squeezeAndRatchet(32))
    }

    /// The secrets of the group whose master key is `groupMasterKey`.
    public static func deriveFromMasterKey(groupMasterKey: GroupMasterKey) throws -> GroupSecretParams {
        derive(masterKey: groupMasterKey.contents)
    }

    /// Secrets read back from their serialized form.
    /// - Throws: ``SignalError/invalidType(_:)`` for another length, a reserved byte other than 0, a non-canonical
    ///   scalar or an invalid point.
    public required init(contents: Data) throws {
        let bytes = [UInt8](contents)
        guard bytes.count == Self.size, bytes[0] == 0 else {
            throw SignalError.invalidType("GroupSecretParams is \(Self.size) bytes starting with 0 (got \(bytes.count))")
        }
        let field = { (index: Int) in Array(bytes[(1 + 32 * index)..<(33 + 32 * index)]) }
        guard let a1 = RistrettoScalar(canonical: field(3)), let a2 = RistrettoScalar(canonical: field(4)),
            let a = RistrettoPoint(encoding: field(5)), let b1 = RistrettoScalar(canonical: field(6)),
            let b2 = RistrettoScalar(canonical: field(7)), let b = RistrettoPoint(encoding: field(8))
        else { throw SignalError.invalidType("GroupSecretParams holds a non-canonical scalar or an invalid point") }
        masterKey = field(0)
        groupId = field(1)
        blobKey = field(2)
        serviceIdKeys = ZKGroupEncryptionKeyPair(a1: a1, a2: a2, publicKey: a)
        profileKeyKeys = ZKGroupEncryptionKeyPair(a1: b1, a2: b2, publicKey: b)
        super.init(checked: bytes)
    }

    private init(
        masterKey: [UInt8], groupId: [UInt8], blobKey: [UInt8], serviceIdKeys: ZKGroupEncryptionKeyPair,
        profileKeyKeys: ZKGroupEncryptionKeyPair
    ) {
        self.masterKey = masterKey
        self.groupId = groupId
        self.blobKey = blobKey
        self.serviceIdKeys = serviceIdKeys
        self.profileKeyKeys = profileKeyKeys
        var bytes: [UInt8] = [0] + masterKey + groupId + blobKey
        bytes += serviceIdKeys.a1.bytes + serviceIdKeys.a2.bytes + serviceIdKeys.publicKey.bytes
        bytes += profileKeyKeys.a1.bytes + profileKeyKeys.a2.bytes + profileKeyKeys.publicKey.bytes
        super.init(checked: bytes)
    }

    private static func derive(masterKey: [UInt8]) -> GroupSecretParams {
        var sho = ShoHmacSha256(label: "Signal_ZKGroup_20200424_GroupMasterKey_GroupSecretParams_DeriveFromMasterKey", data: masterKey)
        let groupId = sho.squeezeAndRatchet(32)
        let blobKey = sho.squeezeAndRatchet(32)
        let serviceIds = ZKGroupGenerators.serviceId
        let serviceIdKeys = ZKGroupEncryptionKeyPair(deriving: &sho, g1: serviceIds.0, g2: serviceIds.1)
        let profileKeys = ZKGroupGenerators.profileKey
        let profileKeyKeys = ZKGroupEncryptionKeyPair(deriving: &sho, g1: profileKeys.0, g2: profileKeys.1)
        return GroupSecretParams(
            masterKey: masterKey, groupId: groupId, blobKey: blobKey, serviceIdKeys: serviceIdKeys, profileKeyKeys: profileKeyKeys)
    }

    /// The group's master key.
    public func getMasterKey() throws -> GroupMasterKey { GroupMasterKey(bytes: masterKey) }

    /// What the server may know of the group: its id and the two public keys.
    public func getPublicParams() throws -> GroupPublicParams {
        GroupPublicParams(groupId: groupId, serviceIdKey: serviceIdKeys.publicKey, profileKeyKey: profileKeyKeys.publicKey)
    }
}
