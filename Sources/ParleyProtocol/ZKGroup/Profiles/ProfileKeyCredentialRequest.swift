import Foundation

/// What a client sends to ask for a profile-key credential (``ProfileKeyCredentialRequestContext/getRequest()``): the
/// blinding key Y, the encrypted profile key and the proof that it is the committed one. 329 bytes: `0x00`, Y, D1, D2,
/// E1, E2, the proof.
public final class ProfileKeyCredentialRequest: ByteArray, @unchecked Sendable {
    /// The request proof's length: the challenge and four responses (y, r1, r2, j3).
    static let proofLength = 160

    let publicKey: RistrettoPoint
    let ciphertext: ProfileKeyRequestCiphertext
    let proof: [UInt8]

    /// The request `contents` holds.
    /// - Throws: ``SignalError/invalidType(_:)`` for another length, a reserved byte other than 0 or an invalid point.
    public required init(contents: Data) throws {
        var reader = ZKGroupReader([UInt8](contents), reading: "ProfileKeyCredentialRequest")
        try reader.expectByte(0)
        publicKey = try reader.point()
        ciphertext = try ProfileKeyRequestCiphertext.read(&reader)
        proof = try reader.bytes(reader.count(atMost: Self.proofLength))
        try reader.finish()
        super.init(checked: [UInt8](contents))
    }

    init(publicKey: RistrettoPoint, ciphertext: ProfileKeyRequestCiphertext, proof: [UInt8]) {
        self.publicKey = publicKey
        self.ciphertext = ciphertext
        self.proof = proof
        super.init(checked: [0] + publicKey.bytes + ciphertext.serialized + ZKGroupReader.littleEndian(UInt64(proof.count)) + proof)
    }
}
