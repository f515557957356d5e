import Foundation

/// A profile key's public version for its owner (``ProfileKey/getProfileKeyVersion(userId:)``): 64 ASCII hex characters.
public final class ProfileKeyVersion: ByteArray, @unchecked Sendable {
    /// Its length in bytes.
    public static let SIZE = 64

    /// The version `contents` holds.
    /// - Throws: ``SignalError/invalidType(_:)`` unless it is 64 bytes.
    public required init(contents: Data) throws {
        try super.init(newContents: contents, expectedLength: Self.SIZE)
    }

    init(bytes: [UInt8]) { super.init(checked: bytes) }
}
