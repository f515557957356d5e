import Foundation

/// The public half of a group's ``GroupSecretParams``: the group id and the public keys of its member-list encryption,
/// against which the server checks credential presentations. 97 bytes: a reserved `0x00`, the group id, then the
/// service-id and profile-key public keys.
public final class GroupPublicParams: ByteArray, @unchecked Sendable {
    static let size = 97

    let groupId: [UInt8]
    let serviceIdKey: RistrettoPoint
    let profileKeyKey: RistrettoPoint

    /// Public params read back from their serialized form.
    /// - Throws: ``SignalError/invalidType(_:)`` for another length, a reserved byte other than 0 or an invalid point.
    public required init(contents: Data) throws {
        let bytes = [UInt8](contents)
        guard bytes.count == Self.size, bytes[0] == 0 else {
            throw SignalError.invalidType("GroupPublicParams is \(Self.size) bytes starting with 0 (got \(bytes.count))")
        }
        guard let serviceIdKey = RistrettoPoint(encoding: bytes[33..<65]), let profileKeyKey = RistrettoPoint(encoding: bytes[65..<97])
        else { throw SignalError.invalidType("GroupPublicParams holds an invalid point") }
        groupId = Array(bytes[1..<33])
        self.serviceIdKey = serviceIdKey
        self.profileKeyKey = profileKeyKey
        super.init(checked: bytes)
    }

    init(groupId: [UInt8], serviceIdKey: RistrettoPoint, profileKeyKey: RistrettoPoint) {
        self.groupId = groupId
        self.serviceIdKey = serviceIdKey
        self.profileKeyKey = profileKeyKey
        super.init(checked: [0] + groupId + serviceIdKey.bytes + profileKeyKey.bytes)
    }

    /// The group's identifier.
    public func getGroupIdentifier() throws -> GroupIdentifier { GroupIdentifier(bytes: groupId) }
}
