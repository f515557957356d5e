/// `removeDevice`'s parameters: the linked device to unlink.
struct RemoveDeviceParameters: SignalCLIParameters {
    let deviceId: Int64?

    init(reading p: SignalCLIParameterReader) throws {
        deviceId = try p.integer("deviceId")
    }
}
