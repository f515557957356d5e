import ParleyAPI

/// Reads an import file incrementally: one hash per line, or CSV whose header names a `hash` (or `sha256`) column.
/// Lines end with LF or CRLF; blank lines are skipped; hashes may be upper- or lowercase in the file (they are
/// stored lowercase); anything else is an invalid line with its reason.
struct HashFileParser {
    /// One parsed line.
    enum Line: Equatable {
        case hash([UInt8])
        case invalid(String)
        case skipped
    }

    /// The longest line accepted (a CSV row with a hash and some other columns).
    static let maximumLineBytes = 4096

    private var column: Int?
    private var headerSeen = false

    /// A parser at the start of a file.
    init() {}

    /// Parses one line (without its newline).
    mutating func parse(_ bytes: ArraySlice<UInt8>) -> Line {
        var line = bytes
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return .skipped }
        guard line.count <= Self.maximumLineBytes else { return .invalid("line longer than \(Self.maximumLineBytes) bytes") }
        if !headerSeen {
            headerSeen = true
            if line.contains(UInt8(ascii: ",")) {
                let names = Self.fields(line).map { String(decoding: $0, as: UTF8.self).lowercased() }
                guard let index = names.firstIndex(where: { ["hash", "sha256", "sha-256", "contenthash"].contains($0) }) else {
                    return .invalid("CSV header has no hash column (hash or sha256)")
                }
                column = index
                return .skipped
            }
        }
        var field = line
        if let column {
            let fields = Self.fields(line)
            guard column < fields.count else { return .invalid("no column \(column + 1)") }
            field = fields[column]
        }
        // Import files may write hashes in upper case; the wire's form is lower case.
        let lowered = field.map { (UInt8(ascii: "A")...UInt8(ascii: "F")).contains($0) ? $0 | 0x20 : $0 }
        let hash = lowered.withUnsafeBufferPointer { ContentHashFormat.parse(digits: $0) }
        guard let hash else { return .invalid("not a SHA-256 hash (64 hex digits)") }
        return .hash(hash)
    }

    /// Comma-separated fields, trimmed of spaces and surrounding double quotes.
    private static func fields(_ line: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map { field in
            var trimmed = field
            while trimmed.first == UInt8(ascii: " ") || trimmed.first == UInt8(ascii: "\"") { trimmed = trimmed.dropFirst() }
            while trimmed.last == UInt8(ascii: " ") || trimmed.last == UInt8(ascii: "\"") { trimmed = trimmed.dropLast() }
            return trimmed
        }
    }
}
