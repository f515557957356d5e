/// The parameters of a signal-cli method that takes none (`version`, `listContacts`, `listDevices`, `removePin`):
/// whatever is given is ignored, as signal-cli ignores it.
struct NoParameters: SignalCLIParameters {
    init(reading reader: SignalCLIParameterReader) throws {}
}
