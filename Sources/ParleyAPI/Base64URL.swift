import Foundation

/// URL-safe base64 without padding (RFC 4648 §5), the form of random codes and addresses that travel in URLs:
/// device link codes, provisioning addresses and the keys in `parley://link` codes.
public enum Base64URL {
    /// `bytes` as URL-safe base64, unpadded.
    public static func encode(_ bytes: some ContiguousBytes) -> String {
        bytes.withUnsafeBytes { Data($0) }.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
            of: "/", with: "_"
        )
        .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of URL-safe base64 (padded or not), or `nil`; text over `maximumLength` characters is refused unread.
    public static func decode(_ text: String, maximumLength: Int = 128) -> [UInt8]? {
        guard text.count <= maximumLength else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }
}
