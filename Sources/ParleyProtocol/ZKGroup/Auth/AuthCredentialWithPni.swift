import Foundation

/// An auth credential a client received and checked: the server's MAC over the account's ACI, its PNI (or the stand-in
/// for one) and the day it may be redeemed. The client presents it to a group's server
/// (``ClientZkAuthOperations/createAuthCredentialPresentation(randomness:groupSecretParams:authCredential:)``) without the
/// server learning who it is. 265 bytes: `0x03`, t, U, V, the ACI and PNI attributes (UUID, M1, M2 each), the redemption
/// time (u64, seconds).
public final class AuthCredentialWithPni: ByteArray, @unchecked Sendable {
    let mac: ZKCredentialMAC
    let aci: ServiceIdAttribute
    let pni: ServiceIdAttribute
    let redemptionTime: UInt64

    /// A credential read back from its serialized form.
    /// - Throws: ``SignalError/invalidType(_:)`` for another length or version, a non-canonical scalar or an invalid point.
    public required init(contents: Data) throws {
        var reader = ZKGroupReader([UInt8](contents), reading: "AuthCredentialWithPni")
        try reader.expectByte(AuthCredentialWithPniResponse.version)
        mac = try ZKCredentialMAC.read(&reader)
        aci = try ServiceIdAttribute.read(&reader)
        pni = try ServiceIdAttribute.read(&reader)
        redemptionTime = try reader.u64()
        try reader.finish()
        super.init(checked: [UInt8](contents))
    }

    init(mac: ZKCredentialMAC, aci: ServiceIdAttribute, pni: ServiceIdAttribute, redemptionTime: UInt64) {
        self.mac = mac
        self.aci = aci
        self.pni = pni
        self.redemptionTime = redemptionTime
        super.init(
            checked: [AuthCredentialWithPniResponse.version] + mac.serialized + aci.serialized + pni.serialized
                + ZKGroupReader.littleEndian(redemptionTime))
    }
}
