import Foundation

/// A member's profile key encrypted under a group's key, bound to the member's ACI (65 bytes: a reserved `0x00`, then
/// E1 and E2).
public final class ProfileKeyCiphertext: ByteArray, @unchecked Sendable {
    let e1: RistrettoPoint
    let e2: RistrettoPoint

    /// A ciphertext read back from its serialized form.
    /// - Throws: ``SignalError/invalidType(_:)`` for another length, a reserved byte other than 0 or an invalid point.
    public required init(contents: Data) throws {
        (e1, e2) = try UuidCiphertext.points(of: [UInt8](contents), name: "ProfileKeyCiphertext")
        super.init(checked: [UInt8](contents))
    }

    init(e1: RistrettoPoint, e2: RistrettoPoint) {
        self.e1 = e1
        self.e2 = e2
        super.init(checked: [0] + e1.bytes + e2.bytes)
    }
}
