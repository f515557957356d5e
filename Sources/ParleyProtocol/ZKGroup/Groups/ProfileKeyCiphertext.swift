import Foundation

/// A member's profile key encrypted under a group's key, bound to the member's ACI (65 bytes: a reserved `0x00`, then
/// E1 and E2).
public final class ProfileKeyCiphertext: AttributeCiphertext, @unchecked Sendable {
    /// A ciphertext read back from its serialized form.
    /// - Throws: ``SignalError/invalidType(_:)`` for another length, a reserved byte other than 0 or an invalid point.
    public required init(contents: Data) throws {
        try super.init(serialized: contents)
    }

    override init(e1: RistrettoPoint, e2: RistrettoPoint) { super.init(e1: e1, e2: e2) }
}
