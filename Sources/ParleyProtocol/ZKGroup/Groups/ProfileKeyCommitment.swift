import Foundation

/// A commitment to a profile key for its owner (``ProfileKey/getCommitment(userId:)``): J1 = j3·G_j1 + M3,
/// J2 = j3·G_j2 + M4, J3 = j3·G_j3, with j3 a SHO scalar of the key and the owner's UUID. Binding and deterministic:
/// the server keeps it and issues profile-key credentials against it without learning the key. 97 bytes: a reserved
/// `0x00`, J1, J2, J3.
public final class ProfileKeyCommitment: ByteArray, @unchecked Sendable {
    let j1: RistrettoPoint
    let j2: RistrettoPoint
    let j3: RistrettoPoint

    /// A commitment read back from its serialized form.
    /// - Throws: ``SignalError/invalidType(_:)`` for another length, a reserved byte other than 0 or an invalid point.
    public required init(contents: Data) throws {
        var reader = ZKGroupReader([UInt8](contents), reading: "ProfileKeyCommitment")
        try reader.expectByte(0)
        j1 = try reader.point()
        j2 = try reader.point()
        j3 = try reader.point()
        try reader.finish()
        super.init(checked: [UInt8](contents))
    }

    /// The commitment to `key` (whose points are `m3` and `m4`) for the owner `aciUUID`, and its nonce j3 (a SHO scalar
    /// of the key and the UUID), which a credential request proves knowledge of.
    static func committing(
        key: [UInt8], aciUUID: [UInt8], m3: RistrettoPoint, m4: RistrettoPoint
    ) -> (commitment: ProfileKeyCommitment, j3: RistrettoScalar) {
        var sho = ShoHmacSha256(label: "Signal_ZKGroup_20200424_ProfileKeyAndUid_ProfileKeyCommitment_Calcj3", data: key + aciUUID)
        let j3 = sho.scalar()
        let generators = ZKGroupGenerators.profileKeyCommitment
        return (ProfileKeyCommitment(j1: j3 * generators[0] + m3, j2: j3 * generators[1] + m4, j3: j3 * generators[2]), j3)
    }

    init(j1: RistrettoPoint, j2: RistrettoPoint, j3: RistrettoPoint) {
        self.j1 = j1
        self.j2 = j2
        self.j3 = j3
        super.init(checked: [0] + j1.bytes + j2.bytes + j3.bytes)
    }
}
