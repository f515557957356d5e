import Foundation

/// An auth credential shown to a group's server (presentation version 4): proof that its holder has a valid credential
/// for the day, and the holder's ACI and PNI encrypted under the group's key — the member entries the server compares
/// without reading. 633 bytes for a credential with two attributes: `0x03`, the zkcredential presentation, the two
/// ``UuidCiphertext`` bodies (E1, E2) and the redemption time (u64, seconds).
public final class AuthCredentialPresentation: ByteArray, @unchecked Sendable {
    /// The version byte libsignal writes for this presentation (its `PRESENTATION_VERSION_4`).
    static let version: UInt8 = 3

    let presentation: ZKCredentialPresentation
    let aciCiphertext: UuidCiphertext
    let pniCiphertext: UuidCiphertext
    let redemptionTime: UInt64

    /// A presentation read back from its serialized form.
    /// - Throws: ``SignalError/invalidType(_:)`` for another version (older presentations are not accepted, as in
    ///   libsignal), more than seven commitments, an over-long proof, an invalid point or trailing bytes.
    public required init(contents: Data) throws {
        var reader = ZKGroupReader([UInt8](contents), reading: "AuthCredentialPresentation")
        try reader.expectByte(Self.version)
        presentation = try ZKCredentialPresentation.read(&reader)
        aciCiphertext = UuidCiphertext(e1: try reader.point(), e2: try reader.point())
        pniCiphertext = UuidCiphertext(e1: try reader.point(), e2: try reader.point())
        redemptionTime = try reader.u64()
        try reader.finish()
        super.init(checked: [UInt8](contents))
    }

    init(presentation: ZKCredentialPresentation, aciCiphertext: UuidCiphertext, pniCiphertext: UuidCiphertext, redemptionTime: UInt64) {
        self.presentation = presentation
        self.aciCiphertext = aciCiphertext
        self.pniCiphertext = pniCiphertext
        self.redemptionTime = redemptionTime
        var bytes = [Self.version] + presentation.serialized
        bytes += aciCiphertext.e1.bytes + aciCiphertext.e2.bytes + pniCiphertext.e1.bytes + pniCiphertext.e2.bytes
        super.init(checked: bytes + ZKGroupReader.littleEndian(redemptionTime))
    }

    /// The presenter's ACI, encrypted under the group's key.
    public func getUuidCiphertext() throws -> UuidCiphertext { aciCiphertext }

    /// The presenter's PNI (or its stand-in), encrypted under the group's key.
    public func getPniCiphertext() throws -> UuidCiphertext { pniCiphertext }

    /// The day the credential is for.
    public func getRedemptionTime() throws -> Date { Date(timeIntervalSince1970: TimeInterval(redemptionTime)) }
}
