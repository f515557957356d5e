import Crypto
import Foundation

/// The 64-byte key of one attachment: a 32-byte AES-256 key followed by a 32-byte HMAC-SHA256 key.
/// It travels end to end inside the message that points at the attachment; the server never sees it.
public struct AttachmentKeys: Sendable, Equatable {
    /// AES-256-CBC key.
    public let aesKey: [UInt8]
    /// HMAC-SHA256 key.
    public let macKey: [UInt8]

    /// Fresh random keys.
    public static func generate() -> AttachmentKeys {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<64).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return AttachmentKeys(aesKey: Array(bytes[0..<32]), macKey: Array(bytes[32..<64]))
    }

    /// Keys from their 64-byte combined form.
    public init(combined: [UInt8]) throws {
        guard combined.count == 64 else { throw ParleyError.attachment(.invalidKeyLength(combined.count)) }
        self.init(aesKey: Array(combined[0..<32]), macKey: Array(combined[32..<64]))
    }

    private init(aesKey: [UInt8], macKey: [UInt8]) {
        self.aesKey = aesKey
        self.macKey = macKey
    }

    /// AES key ‖ MAC key.
    public var combined: [UInt8] { aesKey + macKey }
}
