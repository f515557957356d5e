/// `updateAccount`'s parameters Parley acts on: the username to take (a nickname, or a whole `nickname.NN`) or to give
/// up. signal-cli's other account settings (device name, number sharing, discoverability) have no Parley counterpart
/// and are refused rather than ignored.
struct UpdateAccountParameters: SignalCLIParameters {
    let username: String?
    let deleteUsername: Bool

    init(reading p: SignalCLIParameterReader) throws {
        username = try p.string("username")
        deleteUsername = try p.bool("deleteUsername") ?? false
        for unsupported in ["deviceName", "unrestrictedUnidentifiedSender", "discoverableByNumber", "numberSharing"]
        where p.has(unsupported) {
            throw JSONRPCError.userError("updateAccount: \(unsupported) has no Parley counterpart")
        }
    }
}
