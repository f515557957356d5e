/// One person's reaction to a message: each person has at most one per message; a new one replaces it, a
/// removal withdraws it.
public struct Reaction: Codable, Sendable, Equatable {
    /// Longest emoji accepted (UTF-8 bytes: one grapheme cluster, skin tones and joiners included).
    public static let maximumEmojiBytes = 32

    /// The emoji.
    public var emoji: String
    /// Withdraws the sender's reaction instead of setting it.
    public var remove: Bool
    /// The reacted-to message's author.
    public var targetAuthorAccountId: String
    /// The reacted-to message's timestamp (with the author, its identity).
    public var targetTimestamp: UInt64

    /// A reaction (or its removal) to the message `targetAuthorAccountId` sent at `targetTimestamp`.
    public init(emoji: String, remove: Bool = false, targetAuthorAccountId: String, targetTimestamp: UInt64) {
        self.emoji = emoji
        self.remove = remove
        self.targetAuthorAccountId = targetAuthorAccountId
        self.targetTimestamp = targetTimestamp
    }

    init(_ wire: Parley_Content_Reaction) throws {
        guard wire.remove || (!wire.emoji.isEmpty && wire.emoji.utf8.count <= Self.maximumEmojiBytes && wire.emoji.count == 1) else {
            throw ParleyError.malformedContent("a reaction is one emoji of at most \(Self.maximumEmojiBytes) bytes")
        }
        guard !wire.targetAuthorAccountID.isEmpty, wire.targetAuthorAccountID.utf8.count <= 64 else {
            throw ParleyError.malformedContent("a reaction names its target's author")
        }
        self.init(
            emoji: wire.emoji, remove: wire.remove, targetAuthorAccountId: wire.targetAuthorAccountID,
            targetTimestamp: wire.targetTimestamp)
    }

    func wire() -> Parley_Content_Reaction {
        var wire = Parley_Content_Reaction()
        wire.emoji = emoji
        wire.remove = remove
        wire.targetAuthorAccountID = targetAuthorAccountId
        wire.targetTimestamp = targetTimestamp
        return wire
    }
}
