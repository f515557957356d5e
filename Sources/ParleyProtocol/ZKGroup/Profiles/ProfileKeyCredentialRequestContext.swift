import Foundation

/// A client's request for a profile-key credential, with its secrets (``ClientZkProfileOperations/createProfileKeyCredentialRequestContext(randomness:userId:profileKey:)``):
/// the profile key's points encrypted (ElGamal) under a one-time blinding key Y = y·G, so the server can MAC them without
/// seeing them, and a proof that the ciphertext holds the key the account committed to (``ProfileKeyCommitment``).
/// Kept until the response arrives. 473 bytes: `0x00`, the ACI's UUID, the profile key, y, Y, r1, r2, D1, D2, E1, E2, the
/// proof.
public final class ProfileKeyCredentialRequestContext: ByteArray, @unchecked Sendable {
    let aciUUID: [UInt8]
    let profileKey: [UInt8]
    let y: RistrettoScalar
    let bigY: RistrettoPoint
    let r1, r2: RistrettoScalar
    let ciphertext: ProfileKeyRequestCiphertext
    let proof: [UInt8]

    /// The context `contents` holds.
    /// - Throws: ``SignalError/invalidType(_:)`` for another length, a reserved byte other than 0, a non-canonical scalar or
    ///   an invalid point.
    public required init(contents: Data) throws {
        var reader = ZKGroupReader([UInt8](contents), reading: "ProfileKeyCredentialRequestContext")
        try reader.expectByte(0)
        aciUUID = try reader.bytes(16)
        profileKey = try reader.bytes(32)
        y = try reader.scalar()
        bigY = try reader.point()
        r1 = try reader.scalar()
        r2 = try reader.scalar()
        ciphertext = try ProfileKeyRequestCiphertext.read(&reader)
        proof = try reader.bytes(reader.count(atMost: ProfileKeyCredentialRequest.proofLength))
        try reader.finish()
        super.init(checked: [UInt8](contents))
    }

    init(
        aciUUID: [UInt8], profileKey: [UInt8], y: RistrettoScalar, r1: RistrettoScalar, r2: RistrettoScalar,
        ciphertext: ProfileKeyRequestCiphertext, proof: [UInt8]
    ) {
        self.aciUUID = aciUUID
        self.profileKey = profileKey
        self.y = y
        bigY = RistrettoPoint.base(times: y)
        self.r1 = r1
        self.r2 = r2
        self.ciphertext = ciphertext
        self.proof = proof
        var bytes: [UInt8] = [0] + aciUUID + profileKey + y.bytes + bigY.bytes + r1.bytes + r2.bytes + ciphertext.serialized
        bytes += ZKGroupReader.littleEndian(UInt64(proof.count)) + proof
        super.init(checked: bytes)
    }

    /// The request to send to the server (without the secrets).
    public func getRequest() throws -> ProfileKeyCredentialRequest {
        ProfileKeyCredentialRequest(publicKey: bigY, ciphertext: ciphertext, proof: proof)
    }
}
