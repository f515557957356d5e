import Foundation

/// A service id encrypted under a group's key (65 bytes: a reserved `0x00`, then E1 and E2). Deterministic: one member
/// always encrypts to the same ciphertext in one group, so the server can match members it cannot read.
public final class UuidCiphertext: ByteArray, @unchecked Sendable {
    static let size = 65

    let e1: RistrettoPoint
    let e2: RistrettoPoint

    /// A ciphertext read back from its serialized form.
    /// - Throws: ``SignalError/invalidType(_:)`` for another length, a reserved byte other than 0 or an invalid point.
    public required init(contents: Data) throws {
        (e1, e2) = try Self.points(of: [UInt8](contents), name: "UuidCiphertext")
        super.init(checked: [UInt8](contents))
    }

    init(e1: RistrettoPoint, e2: RistrettoPoint) {
        self.e1 = e1
        self.e2 = e2
        super.init(checked: [0] + e1.bytes + e2.bytes)
    }

    /// E1 and E2 of a 65-byte ciphertext named `name`.
    static func points(of bytes: [UInt8], name: String) throws -> (RistrettoPoint, RistrettoPoint) {
        guard bytes.count == size, bytes[0] == 0 else {
            throw SignalError.invalidType("\(name) is \(size) bytes starting with 0 (got \(bytes.count))")
        }
        guard let e1 = RistrettoPoint(encoding: bytes[1..<33]), let e2 = RistrettoPoint(encoding: bytes[33..<65]) else {
            throw SignalError.invalidType("\(name) holds an invalid point")
        }
        return (e1, e2)
    }
}
