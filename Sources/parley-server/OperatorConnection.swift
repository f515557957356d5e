import ArgumentParser
import AsyncHTTPClient
import Foundation
import ParleyOperatorClient

/// How the operator's commands (`dcd`, `invites`, `accounts`) reach a running server: its URL and the operator token.
/// The calls themselves are ParleyOperatorClient's (``OperatorClient``).
struct OperatorConnection: ParsableArguments {
    @Option(help: "The server's URL (environment: PARLEY_SERVER_URL).")
    var server = ProcessInfo.processInfo.environment["PARLEY_SERVER_URL"] ?? "http://127.0.0.1:8080"

    @Option(help: "The operator credential the server was started with (environment: PARLEY_OPERATOR_TOKEN).")
    var operatorToken: String?

    /// Runs `body` with an operator client of the server; its HTTP connections close afterwards.
    func with<T>(_ body: (OperatorClient) async throws -> T) async throws -> T {
        guard let operatorToken = operatorToken ?? ProcessInfo.processInfo.environment["PARLEY_OPERATOR_TOKEN"] else {
            throw ValidationError("pass --operator-token or set PARLEY_OPERATOR_TOKEN")
        }
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let result = try await body(OperatorClient(baseURL: server, http: http, token: operatorToken))
            try await http.shutdown()
            return result
        } catch {
            try? await http.shutdown()
            throw error
        }
    }
}
