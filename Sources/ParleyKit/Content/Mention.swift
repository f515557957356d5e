/// A range of a message's text that names an account (an @-mention), as Signal's body ranges: offsets in UTF-16 code
/// units, as the apps that draw them count. The text usually holds a placeholder (U+FFFC, ``placeholder``) where the
/// mention is drawn, but any range of the text may be one.
public struct Mention: Codable, Sendable, Equatable, Hashable {
    /// The character Signal's apps put where a mention is drawn.
    public static let placeholder = "\u{FFFC}"
    /// The most mentions one message may carry.
    public static let maximumPerMessage = 100
    /// The longest account id a mention may name (UTF-8 bytes).
    public static let maximumAccountIdBytes = 64

    /// The mentioned account.
    public var accountId: String
    /// Where the range starts, in UTF-16 code units from the start of the text.
    public var start: Int
    /// How long it is, in UTF-16 code units (at least 1).
    public var length: Int

    /// A mention of `accountId` over `length` UTF-16 code units of the text from `start`.
    public init(accountId: String, start: Int, length: Int) {
        self.accountId = accountId
        self.start = start
        self.length = length
    }

    /// Checks `mentions` against the text they range over.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` naming what is wrong: too many, a range outside `body`, an empty
    ///   range, an empty or oversized account id.
    public static func validate(_ mentions: [Mention], in body: String?) throws {
        guard !mentions.isEmpty else { return }
        guard mentions.count <= maximumPerMessage else {
            throw ParleyError.invalidArgument("a message carries at most \(maximumPerMessage) mentions")
        }
        let units = body?.utf16.count ?? 0
        for mention in mentions {
            guard mention.start >= 0, mention.length >= 1, mention.start <= units - mention.length else {
                throw ParleyError.invalidArgument("a mention at \(mention.start) of length \(mention.length) is not inside the "
                                                  + "text's \(units) UTF-16 code units")
            }
            guard (1...maximumAccountIdBytes).contains(mention.accountId.utf8.count) else {
                throw ParleyError.invalidArgument("a mention names an account id of 1…\(maximumAccountIdBytes) bytes")
            }
        }
    }

    init(_ wire: Parley_Content_BodyRange) {
        self.init(accountId: wire.mentionAccountID, start: Int(wire.start), length: Int(wire.length))
    }

    func wire() -> Parley_Content_BodyRange {
        var wire = Parley_Content_BodyRange()
        wire.start = UInt32(clamping: start)
        wire.length = UInt32(clamping: length)
        wire.mentionAccountID = accountId
        return wire
    }
}
