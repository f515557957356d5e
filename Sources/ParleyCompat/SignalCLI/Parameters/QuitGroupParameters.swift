/// `quitGroup`'s parameters: the group to leave.
struct QuitGroupParameters: SignalCLIParameters {
    let groupId: String?

    init(reading p: SignalCLIParameterReader) throws {
        groupId = try p.string("groupId")
    }
}
