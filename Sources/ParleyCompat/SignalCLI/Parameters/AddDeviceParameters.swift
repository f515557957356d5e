/// `addDevice`'s parameters: the new device's link code (Parley's `parley://link?…`, where signal-cli takes `sgnl://`).
struct AddDeviceParameters: SignalCLIParameters {
    let uri: String?

    init(reading p: SignalCLIParameterReader) throws {
        uri = try p.string("uri")
    }
}
