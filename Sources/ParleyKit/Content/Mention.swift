import Foundation

/// A range of a message's text that names an account (an @-mention), as Signal's body ranges: offsets in UTF-16 code
/// units, as the apps that draw them count. The text usually holds a placeholder (U+FFFC, ``placeholder``) where the
/// mention is drawn, but any range of the text may be one.
public struct Mention: Codable, Sendable, Equatable, Hashable {
    /// The character Signal's apps put where a mention is drawn.
    public static let placeholder = "\u{FFFC}"
    /// The most mentions one message may carry.
    public static let maximumPerMessage = 100

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
    /// - Throws: ``ParleyError/invalidArgument(_:)`` naming what is wrong: too many, a range outside `body` or empty, an
    ///   account id that is not one (a lowercase UUID).
    public static func validate(_ mentions: [Mention], in body: String?) throws {
        guard mentions.count <= maximumPerMessage else {
            throw ParleyError.invalidArgument("a message carries at most \(maximumPerMessage) mentions")
        }
        let units = body?.utf16.count ?? 0
        for mention in mentions {
            guard mention.fits(units) else {
                throw ParleyError.invalidArgument(
                    "a mention at \(mention.start) of length \(mention.length) is not inside the "
                        + "text's \(units) UTF-16 code units")
            }
            guard mention.namesAnAccount else {
                throw ParleyError.invalidArgument(
                    "a mention names an account by its id (a lowercase UUID), not “\(mention.accountId.prefix(64))”")
            }
        }
    }

    /// Whether the range lies inside a text of `units` UTF-16 code units and is not empty.
    func fits(_ units: Int) -> Bool {
        start >= 0 && length >= 1 && start <= units - length
    }

    /// Whether ``accountId`` is an account id: a UUID in lowercase, as Parley writes them.
    var namesAnAccount: Bool {
        accountId.utf8.count == 36 && UUID(uuidString: accountId)?.uuidString.lowercased() == accountId
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
