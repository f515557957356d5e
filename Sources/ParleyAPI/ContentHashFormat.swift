/// The text form of content hashes: SHA-256 as exactly 64 lowercase hex characters, and 5-digit prefixes.
public enum ContentHashFormat {
    /// Characters in a hash.
    public static let hexLength = 64
    /// Characters in a lookup prefix.
    public static let prefixLength = 5

    /// The 32 bytes of `text`, or `nil` unless it is exactly 64 lowercase hex characters.
    public static func parse(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { parse(digits: $0) }
    }

    /// The 32 bytes of 64 lowercase hex digits in `digits`, or `nil`.
    public static func parse(digits: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard digits.count == hexLength else { return nil }
        let table = lowercaseValues
        var bytes = [UInt8](repeating: 0, count: 32)
        var invalid: UInt8 = 0
        for index in 0..<32 {
            let high = table[Int(digits[2 * index])]
            let low = table[Int(digits[2 * index + 1])]
            invalid |= (high | low) & 0x10
            bytes[index] = high << 4 | low & 0x0f
        }
        return invalid == 0 ? bytes : nil
    }

    /// Digit values; 0x10 marks a byte that is not a digit.
    private static let lowercaseValues: [UInt8] = (0...255).map { byte in value(UInt8(byte)) ?? 0x10 }

    /// The 20-bit value of a 5-digit lowercase hex prefix, or `nil`.
    public static func parsePrefix(_ text: String) -> UInt32? {
        let digits = Array(text.utf8)
        guard digits.count == prefixLength else { return nil }
        var result: UInt32 = 0
        for digit in digits {
            guard let nibble = value(digit) else { return nil }
            result = result << 4 | UInt32(nibble)
        }
        return result
    }

    /// Lowercase hex of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        let table = Array("0123456789abcdef".utf8)
        var characters: [UInt8] = []
        characters.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            characters.append(table[Int(byte >> 4)])
            characters.append(table[Int(byte & 0x0f)])
        }
        return String(decoding: characters, as: UTF8.self)
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
