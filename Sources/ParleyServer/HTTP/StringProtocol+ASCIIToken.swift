extension StringProtocol {
    /// Whether the text is made of ASCII letters, digits, '-', '_' and '.' only (usernames, ephemeral event kinds):
    /// nothing that looks like another character, and nothing a log line, a path or a terminal treats specially. The
    /// empty text is one; callers bound the length.
    var isASCIIToken: Bool {
        utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                true
            default: false
            }
        }
    }
}
