import Foundation

/// A group's root secret (32 bytes): every member holds it; all of the group's keys derive from it
/// (``GroupSecretParams/deriveFromMasterKey(groupMasterKey:)``).
public final class GroupMasterKey: ByteArray, @unchecked Sendable {
    /// Its length in bytes.
    public static let SIZE = 32

    /// The master key `contents` holds.
    /// - Throws: ``SignalError/invalidType(_:)`` unless it is 32 bytes.
    public required init(contents: Data) throws {
        try super.init(newContents: contents, expectedLength: Self.SIZE)
    }

    init(bytes: [UInt8]) { super.init(checked: bytes) }
}
