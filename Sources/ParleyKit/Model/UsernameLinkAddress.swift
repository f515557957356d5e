import Foundation
import ParleyAPI

/// A username link as people share it: `parley://username/` and the unpadded base64url of the link's 32 bytes of
/// entropy followed by its 16-byte handle (the bytes of Signal's `signal.me/#eu/` links). The server keeps the
/// username encrypted under the handle; only whoever holds the link has the entropy that decrypts it.
public struct UsernameLinkAddress: Sendable, Equatable, CustomStringConvertible {
    /// The prefix every link has.
    public static let prefix = "parley://username/"

    /// The 32 bytes of entropy the encrypted username is sealed under.
    public let entropy: Data
    /// The handle the server stores the encrypted username under.
    public let handle: UUID

    /// A link of `entropy` (32 bytes) and `handle`.
    public init(entropy: Data, handle: UUID) {
        self.entropy = entropy
        self.handle = handle
    }

    /// The link `text` spells, or `nil` when it is no username link.
    public init?(_ text: String) {
        guard text.hasPrefix(Self.prefix), let bytes = Base64URL.decode(String(text.dropFirst(Self.prefix.count)), maximumLength: 96),
            bytes.count == 48
        else { return nil }
        entropy = Data(bytes.prefix(32))
        let h = Array(bytes.suffix(16))
        handle = UUID(uuid: (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[9], h[10], h[11], h[12], h[13], h[14], h[15]))
    }

    /// The link as text.
    public var description: String {
        let handleBytes = withUnsafeBytes(of: handle.uuid) { Array($0) }
        return Self.prefix + Base64URL.encode(Array(entropy) + handleBytes)
    }
}
