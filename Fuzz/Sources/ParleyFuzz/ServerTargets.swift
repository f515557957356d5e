import ParleyAPI
@testable import ParleyServer

/// What the server parses from files an operator imports (hash banks of known content): line by line, a plain list or
/// CSV with a header, in whatever case and line endings the file came with.
enum ServerTargets {
    /// An import file's lines: every line is a hash, an invalid line with a reason, or skipped, never a crash; a hash is
    /// 32 bytes and its hex digits are in the line.
    static let hashFile = FuzzTarget(run: { input in
        var parser = HashFileParser()
        for line in input.split(separator: 10, omittingEmptySubsequences: false) {
            switch parser.parse(line) {
            case .hash(let hash):
                invariant(hash.count == 32, "a parsed hash has 32 bytes")
                let hex = hash.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
                invariant(String(decoding: line, as: UTF8.self).lowercased().contains(hex), "a parsed hash's digits are in its line")
            case .invalid(let reason):
                invariant(!reason.isEmpty, "an invalid line says why")
            case .skipped:
                break
            }
        }
    }, seeds: {
        let hash = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
        return [
            Array("\(hash)\n\(hash.uppercased())\r\n\nnot a hash\n".utf8),
            Array("name,SHA256,size\r\n\"cat.jpg\",\"\(hash)\",12\nshort,row\n".utf8),
        ]
    })
}
