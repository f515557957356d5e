/// `sendTyping`'s parameters: started (or, with `stop`, stopped) typing, to people and groups.
struct SendTypingParameters: SignalCLIParameters {
    let stop: Bool
    let recipients: [String]
    let groupIds: [String]

    init(reading p: SignalCLIParameterReader) throws {
        stop = try p.bool("stop") ?? false
        recipients = try p.list("recipient", "recipients")
        groupIds = try p.list("groupId", "groupIds")
    }
}
