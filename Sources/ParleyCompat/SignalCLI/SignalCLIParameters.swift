/// The parameters of one signal-cli method, decoded as signal-cli reads them: a list under its singular or plural name,
/// a string where a list is expected, a number written as a string; a parameter of the wrong type is refused (-32602).
///
/// Each method has its own type (``SendParameters``, ``SendReactionParameters``, …): the table of methods
/// (``SignalCLIMethods/table``) decodes a request's parameters into it before the handler runs, so every parameter is
/// read, and every wrong one refused, before anything is looked up or queued.
protocol SignalCLIParameters: Decodable, Sendable {
    /// Reads the parameters from `reader`.
    /// - Throws: ``JSONRPCError/invalidParams(_:)`` for a parameter of the wrong type.
    init(reading reader: SignalCLIParameterReader) throws
}

extension SignalCLIParameters {
    /// Decodes the parameters from a JSON object.
    init(from decoder: any Decoder) throws {
        try self.init(reading: SignalCLIParameterReader(values: try decoder.singleValueContainer().decode([String: JSONValue].self)))
    }
}
