/// `joinGroup`'s parameters: the invite link.
struct JoinGroupParameters: SignalCLIParameters {
    let uri: String?

    init(reading p: SignalCLIParameterReader) throws {
        uri = try p.string("uri")
    }
}
