/// `listGroups`'s parameters: the groups to list (all when none are named).
struct ListGroupsParameters: SignalCLIParameters {
    let groupIds: [String]

    init(reading p: SignalCLIParameterReader) throws {
        groupIds = try p.list("groupId", "groupIds")
    }
}
