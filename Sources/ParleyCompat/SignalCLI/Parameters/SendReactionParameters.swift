/// `sendReaction`'s parameters: an emoji on a message, or taking it back.
struct SendReactionParameters: SignalCLIParameters {
    let emoji: String?
    /// The message reacted to: its author (by default the one recipient) and timestamp.
    let targetAuthor: String?
    let targetTimestamp: Int64?
    /// Whether the reaction is taken back.
    let remove: Bool
    let recipients: [String]
    let groupIds: [String]

    init(reading p: SignalCLIParameterReader) throws {
        emoji = try p.string("emoji")
        targetAuthor = try p.string("targetAuthor")
        targetTimestamp = try p.integer("targetTimestamp")
        remove = try p.bool("remove") ?? false
        recipients = try p.list("recipient", "recipients")
        groupIds = try p.list("groupId", "groupIds")
    }
}
