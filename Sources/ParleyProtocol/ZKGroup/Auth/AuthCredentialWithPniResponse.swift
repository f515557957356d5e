import Foundation

/// A server's issuance of an auth credential (zkcredential, version 3): the credential's MAC and the proof that it was
/// made with the server's key, which the client checks when it receives it
/// (``ClientZkAuthOperations/receiveAuthCredentialWithPniAsServiceId(aci:pni:redemptionTime:authCredentialResponse:)``).
/// 425 bytes: `0x03`, t, U, V, then the proof with its u64 length.
public final class AuthCredentialWithPniResponse: ByteArray, @unchecked Sendable {
    static let version: UInt8 = 3

    let mac: ZKCredentialMAC
    let proof: [UInt8]

    /// A response read back from its serialized form.
    /// - Throws: ``SignalError/invalidType(_:)`` for another version, a non-canonical scalar, an invalid point, a
    ///   proof longer than an issuance proof, or trailing bytes.
    public required init(contents: Data) throws {
        var reader = ZKGroupReader([UInt8](contents), reading: "AuthCredentialWithPniResponse")
        try reader.expectByte(Self.version)
        mac = try ZKCredentialMAC.read(&reader)
        // The longest issuance proof: 13 scalars (w, w', x0, x1, y0…y6) and the challenge.
        proof = try reader.bytes(reader.count(atMost: 32 * 14))
        try reader.finish()
        super.init(checked: [UInt8](contents))
    }

    init(mac: ZKCredentialMAC, proof: [UInt8]) {
        self.mac = mac
        self.proof = proof
        super.init(checked: [Self.version] + mac.serialized + ZKGroupReader.littleEndian(UInt64(proof.count)) + proof)
    }
}
