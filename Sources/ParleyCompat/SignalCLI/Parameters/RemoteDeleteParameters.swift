/// `remoteDelete`'s parameters: this account's message to delete for everyone.
struct RemoteDeleteParameters: SignalCLIParameters {
    let targetTimestamp: Int64?
    let recipients: [String]
    let groupIds: [String]

    init(reading p: SignalCLIParameterReader) throws {
        targetTimestamp = try p.integer("targetTimestamp")
        recipients = try p.list("recipient", "recipients")
        groupIds = try p.list("groupId", "groupIds")
    }
}
