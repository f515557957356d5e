import Foundation

/// The 16-byte unidentified access key a sealed-sender send presents instead of credentials: read from base64 (the
/// header, the registration and attributes bodies) and compared in constant time.
enum UnidentifiedAccessKey {
    /// The key's length in bytes.
    static let length = 16

    /// The key `base64` encodes, or `nil` when it is not 16 bytes of base64.
    static func decode(_ base64: String) -> [UInt8]? {
        guard base64.utf8.count <= 64, let key = Data(base64Encoded: base64), key.count == length else { return nil }
        return Array(key)
    }

    /// Whether two keys are the same 16 bytes, compared in constant time.
    static func matches(_ expected: [UInt8], _ presented: [UInt8]) -> Bool {
        guard expected.count == length, presented.count == length else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(expected, presented) { difference |= a ^ b }
        return difference == 0
    }
}
