/// `setPin`'s parameters: the PIN that protects the identity backup on the server.
struct SetPinParameters: SignalCLIParameters {
    let pin: String?

    init(reading p: SignalCLIParameterReader) throws {
        pin = try p.string("pin")
    }
}
