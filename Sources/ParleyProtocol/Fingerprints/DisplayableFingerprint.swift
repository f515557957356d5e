/// The 60-digit safety number: each side's 30 digits, the smaller string first, so both sides see the same number.
public struct DisplayableFingerprint: Sendable, Equatable {
    /// The 60 digits.
    public let formatted: String

    init(localHash: [UInt8], remoteHash: [UInt8]) {
        let local = Self.digits(of: localHash)
        let remote = Self.digits(of: remoteHash)
        formatted = local <= remote ? local + remote : remote + local
    }

    /// The digits in groups of five, twelve groups in three lines, as people read them aloud.
    public var grouped: String {
        let groups = stride(from: 0, to: formatted.count, by: 5).map { start -> String in
            let from = formatted.index(formatted.startIndex, offsetBy: start)
            return String(formatted[from..<formatted.index(from, offsetBy: 5)])
        }
        return stride(from: 0, to: groups.count, by: 4).map { groups[$0..<min($0 + 4, groups.count)].joined(separator: " ") }
            .joined(separator: "\n")
    }

    /// Six 5-byte big-endian chunks of the hash, each mod 100000, as 5 digits.
    private static func digits(of hash: [UInt8]) -> String {
        (0..<6).map { chunk in
            let value = hash[(chunk * 5)..<(chunk * 5 + 5)].reduce(UInt64(0)) { ($0 << 8) | UInt64($1) } % 100_000
            let text = String(value)
            return String(repeating: "0", count: 5 - text.count) + text
        }.joined()
    }
}
