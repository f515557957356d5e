import Foundation

/// The serialized form every zkgroup value is (libsignal's `ByteArray`): its bytes, checked when read.
///
/// Subclasses check their contents in `init(contents:)`: a fixed length, a version byte, canonical points and scalars.
/// A wrong length or shape throws ``SignalError/invalidType(_:)``, as libsignal does. Immutable once made.
public class ByteArray: @unchecked Sendable {
    /// The bytes.
    let contents: [UInt8]

    /// `newContents` for a type of `expectedLength` bytes.
    /// - Throws: ``SignalError/invalidType(_:)`` for another length.
    init(newContents: Data, expectedLength: Int) throws {
        guard newContents.count == expectedLength else {
            throw SignalError.invalidType(
                "\(type(of: self)) uses \(expectedLength) bytes, but tried to deserialize from an array of \(newContents.count) bytes")
        }
        contents = [UInt8](newContents)
    }

    /// Bytes this library made (already the right shape).
    init(checked contents: [UInt8]) {
        self.contents = contents
    }

    /// The serialized form.
    public func serialize() -> Data { Data(contents) }
}

/// A ``ByteArray`` that is `Hashable` (by its bytes): for identifiers, never for keys.
public class HashableByteArray: ByteArray, Hashable, @unchecked Sendable {
    public static func == (lhs: HashableByteArray, rhs: HashableByteArray) -> Bool {
        type(of: lhs) == type(of: rhs) && lhs.contents == rhs.contents
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(contents)
    }
}
