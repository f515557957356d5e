import Foundation

/// A profile-key credential a client received and opened: the server's MAC (t, U, V) over its ACI, its profile key and
/// an expiration, which it presents to a group's server to prove that the profile key it adds to the group is its own.
/// 153 bytes: `0x00`, t, U, V, the ACI's UUID, the profile key, the expiration (u64, seconds).
public final class ExpiringProfileKeyCredential: ByteArray, @unchecked Sendable {
    let mac: ZKCredentialMAC
    let aciUUID: [UInt8]
    let profileKey: [UInt8]
    let expiration: UInt64

    /// The credential `contents` holds.
    /// - Throws: ``SignalError/invalidType(_:)`` for another length, a reserved byte other than 0, a non-canonical scalar
    ///   or an invalid point.
    public required init(contents: Data) throws {
        var reader = ZKGroupReader([UInt8](contents), reading: "ExpiringProfileKeyCredential")
        try reader.expectByte(0)
        mac = try ZKCredentialMAC.read(&reader)
        aciUUID = try reader.bytes(16)
        profileKey = try reader.bytes(32)
        expiration = try reader.u64()
        try reader.finish()
        super.init(checked: [UInt8](contents))
    }

    init(mac: ZKCredentialMAC, aciUUID: [UInt8], profileKey: [UInt8], expiration: UInt64) {
        self.mac = mac
        self.aciUUID = aciUUID
        self.profileKey = profileKey
        self.expiration = expiration
        super.init(checked: [0] + mac.serialized + aciUUID + profileKey + ZKGroupReader.littleEndian(expiration))
    }

    /// When the credential stops being accepted.
    public var expirationTime: Date { Date(timeIntervalSince1970: TimeInterval(expiration)) }
}
