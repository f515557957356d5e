/// `listIdentities`'s parameters: one person's identity (`number`), or everyone's.
struct ListIdentitiesParameters: SignalCLIParameters {
    let number: String?

    init(reading p: SignalCLIParameterReader) throws {
        number = try p.string("number")
    }
}
