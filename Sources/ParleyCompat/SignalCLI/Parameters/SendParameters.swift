/// `send`'s parameters: a message (text, attachments, mentions, a quote) to people and groups, or — with
/// `editTimestamp` — a new text for this account's earlier message.
struct SendParameters: SignalCLIParameters {
    /// People, as ``SignalCLIAddress`` names them (`recipient` or `recipients`).
    let recipients: [String]
    /// People by username (`username` or `usernames`).
    let usernames: [String]
    /// Groups, by base64 (or hex) id (`groupId` or `groupIds`).
    let groupIds: [String]
    /// The text (`message`).
    let message: String?
    /// Files to attach, as paths or `data:` URIs (`attachment` or `attachments`).
    let attachments: [String]
    /// `START:LENGTH:RECIPIENT` mentions (`mention` or `mentions`).
    let mentions: [String]
    /// The quoted message's timestamp and author.
    let quoteTimestamp: Int64?
    let quoteAuthor: String?
    /// The timestamp of this account's message to edit.
    let editTimestamp: Int64?

    /// Every person named, usernames as `u:NAME`.
    var people: [String] { recipients + usernames.map { "u:" + $0 } }

    init(reading p: SignalCLIParameterReader) throws {
        recipients = try p.list("recipient", "recipients")
        usernames = try p.list("username", "usernames")
        groupIds = try p.list("groupId", "groupIds")
        message = try p.string("message")
        attachments = try p.list("attachment", "attachments")
        mentions = try p.list("mention", "mentions")
        quoteTimestamp = try p.integer("quoteTimestamp")
        quoteAuthor = try p.string("quoteAuthor")
        editTimestamp = try p.integer("editTimestamp")
    }
}
