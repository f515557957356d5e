import Foundation

/// An attribute encrypted under a group's key (``ZKGroupEncryptionKeyPair``): 65 bytes, a reserved `0x00`, then the
/// points E1 and E2. What ``UuidCiphertext`` and ``ProfileKeyCiphertext`` are.
public class AttributeCiphertext: ByteArray, @unchecked Sendable {
    static let size = 65

    let e1: RistrettoPoint
    let e2: RistrettoPoint

    /// A ciphertext read back from its serialized form.
    /// - Throws: ``SignalError/invalidType(_:)`` for another length, a reserved byte other than 0 or an invalid point.
    init(serialized contents: Data) throws {
        let bytes = [UInt8](contents)
        let name = "\(Self.self)"
        guard bytes.count == Self.size, bytes[0] == 0 else {
            throw SignalError.invalidType("\(name) is \(Self.size) bytes starting with 0 (got \(bytes.count))")
        }
        guard let e1 = RistrettoPoint(encoding: bytes[1..<33]), let e2 = RistrettoPoint(encoding: bytes[33..<65]) else {
            throw SignalError.invalidType("\(name) holds an invalid point")
        }
        self.e1 = e1
        self.e2 = e2
        super.init(checked: bytes)
    }

    init(e1: RistrettoPoint, e2: RistrettoPoint) {
        self.e1 = e1
        self.e2 = e2
        super.init(checked: [0] + e1.bytes + e2.bytes)
    }
}
