/// One signal-cli JSON-RPC method: its name, the parameters type its requests decode to, and its handler.
struct SignalCLIMethod: Sendable {
    /// The method's name (`send`, `sendReaction`, …).
    let name: String
    /// Decodes `params` and runs the handler on `methods`.
    private let run: @Sendable (_ methods: SignalCLIMethods, _ params: [String: JSONValue]) async throws -> JSONValue

    /// The method `name`, whose requests decode to `Parameters` and are answered by `handler`.
    init<Parameters: SignalCLIParameters>(
        _ name: String, _ parameters: Parameters.Type,
        handler: @escaping @Sendable (SignalCLIMethods, Parameters) async throws -> JSONValue
    ) {
        self.name = name
        run = { methods, params in try await handler(methods, try Parameters(reading: SignalCLIParameterReader(values: params))) }
    }

    /// The answer to a call with `params` on `methods`.
    /// - Throws: ``JSONRPCError`` for parameters of the wrong type; the handler's errors.
    func callAsFunction(_ methods: SignalCLIMethods, _ params: [String: JSONValue]) async throws -> JSONValue {
        try await run(methods, params)
    }
}
