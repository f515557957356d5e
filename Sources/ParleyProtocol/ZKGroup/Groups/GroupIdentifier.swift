import Foundation

/// A group's public identifier (32 bytes, derived from its master key): what the server files the group under.
public final class GroupIdentifier: HashableByteArray, CustomStringConvertible, @unchecked Sendable {
    /// Its length in bytes.
    public static let SIZE = 32

    /// The identifier `contents` holds.
    /// - Throws: ``SignalError/invalidType(_:)`` unless it is 32 bytes.
    public required init(contents: Data) throws {
        try super.init(newContents: contents, expectedLength: Self.SIZE)
    }

    init(bytes: [UInt8]) { super.init(checked: bytes) }

    /// Lowercase hex.
    public var description: String { contents.map { String(format: "%02x", $0) }.joined() }
}
