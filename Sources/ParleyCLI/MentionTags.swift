import ArgumentParser
import Foundation
import ParleyKit

/// What `--mention NAME` options ask for: each name's next `@NAME` in the text, in order — matched without regard to
/// case, as a whole name (not the start of a longer one: `@bob` is not in `@bobby`) — as a mention of the account the
/// name stands for (a username, or an account id).
enum MentionTags {
    /// The mentions `names` ask for in `text`; each name is looked up (the server is asked for a name this device has
    /// not seen yet).
    /// - Throws: `ValidationError` when the text has no `@NAME` left for a name.
    static func mentions(of names: [String], in text: String, client: ParleyClient) async throws -> [Mention] {
        var mentions: [Mention] = []
        var searchFrom = text.startIndex
        for name in names {
            let tag = "@" + (name.hasPrefix("@") ? String(name.dropFirst()) : name)
            guard let range = wholeTag(tag, in: text, from: searchFrom) else {
                throw ValidationError("--mention \(name): the text has no \(tag) (after the earlier mentions)")
            }
            let start = text.utf16.distance(from: text.startIndex, to: range.lowerBound)
            let length = text.utf16.distance(from: range.lowerBound, to: range.upperBound)
            mentions.append(Mention(accountId: try await client.resolve(String(tag.dropFirst())), start: start, length: length))
            searchFrom = range.upperBound
        }
        return mentions
    }

    /// The first `tag` in `text` at or after `start` that is not followed by another name character.
    private static func wholeTag(_ tag: String, in text: String, from start: String.Index) -> Range<String.Index>? {
        var from = start
        while let range = text.range(of: tag, options: .caseInsensitive, range: from..<text.endIndex) {
            let next = range.upperBound < text.endIndex ? text[range.upperBound] : nil
            if next.map({ !($0.isLetter || $0.isNumber || $0 == "_") }) ?? true { return range }
            from = range.upperBound
        }
        return nil
    }
}
