import Foundation

/// A server's endorsement key for one expiration day, derived from its root endorsement key
/// (``ServerSecretParams``): t a SHO scalar of the expiration, sk′ = 1/(sk + t), PK′ = PK + t·G. Endorsements it
/// issues, and the tokens made from them, are only good until that expiration. 73 bytes: `0x00`, sk′, PK′, the
/// expiration (u64, seconds).
public final class GroupSendDerivedKeyPair: ByteArray, @unchecked Sendable {
    let secret: RistrettoScalar
    let publicKey: RistrettoPoint
    let expiration: UInt64

    /// The key pair `contents` holds.
    /// - Throws: ``SignalError/invalidType(_:)`` for another length, a reserved byte other than 0, a non-canonical
    ///   scalar or an invalid point.
    public required init(contents: Data) throws {
        var reader = ZKGroupReader([UInt8](contents), reading: "GroupSendDerivedKeyPair")
        try reader.expectByte(0)
        secret = try reader.scalar()
        publicKey = try reader.point()
        expiration = try reader.u64()
        try reader.finish()
        super.init(checked: [UInt8](contents))
    }

    private init(secret: RistrettoScalar, publicKey: RistrettoPoint, expiration: UInt64) {
        self.secret = secret
        self.publicKey = publicKey
        self.expiration = expiration
        super.init(checked: [0] + secret.bytes + publicKey.bytes + ZKGroupReader.littleEndian(expiration))
    }

    /// The key pair for endorsements expiring at `expiration` (whole seconds count).
    public static func forExpiration(_ expiration: Date, params: ServerSecretParams) -> GroupSendDerivedKeyPair {
        let seconds = ZKGroupTime.seconds(expiration)
        let t = tagScalar(expiration: seconds)
        // sk + t is zero with negligible probability (t is a hash output); were it, the inverse would not exist.
        guard let secret = (params.endorsementKey + t).inverse else { preconditionFailure("the derived endorsement key is zero") }
        return GroupSendDerivedKeyPair(
            secret: secret, publicKey: RistrettoPoint.base(times: params.endorsementKey) + RistrettoPoint.base(times: t),
            expiration: seconds)
    }

    /// t for an expiration: a SHO scalar of it (big-endian seconds) under the endorsement label.
    static func tagScalar(expiration: UInt64) -> RistrettoScalar {
        var sho = ShoHmacSha256(label: "20240215_Signal_GroupSendEndorsement", data: ShoHmacSha256.bigEndian(expiration))
        return sho.scalar()
    }
}
