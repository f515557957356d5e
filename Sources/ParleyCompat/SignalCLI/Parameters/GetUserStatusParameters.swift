/// `getUserStatus`'s parameters: the people to look up.
struct GetUserStatusParameters: SignalCLIParameters {
    let recipients: [String]
    let usernames: [String]

    /// Every person named, usernames as `u:NAME`.
    var people: [String] { recipients + usernames.map { "u:" + $0 } }

    init(reading p: SignalCLIParameterReader) throws {
        recipients = try p.list("recipient", "recipients")
        usernames = try p.list("username", "usernames")
    }
}
