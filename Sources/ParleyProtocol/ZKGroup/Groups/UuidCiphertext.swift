import Foundation

/// A service id encrypted under a group's key (65 bytes: a reserved `0x00`, then E1 and E2). Deterministic: one member
/// always encrypts to the same ciphertext in one group, so the server can match members it cannot read.
public final class UuidCiphertext: AttributeCiphertext, @unchecked Sendable {
    /// A ciphertext read back from its serialized form.
    /// - Throws: ``SignalError/invalidType(_:)`` for another length, a reserved byte other than 0 or an invalid point.
    public required init(contents: Data) throws {
        try super.init(serialized: contents)
    }

    override init(e1: RistrettoPoint, e2: RistrettoPoint) { super.init(e1: e1, e2: e2) }
}
