import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ParleyAPI

/// How the operator's commands (`dcd`, `invites`, `accounts`) reach a running server: its URL and the operator token,
/// and the JSON calls they make with them.
struct OperatorConnection: ParsableArguments {
    @Option(help: "The server's URL (environment: PARLEY_SERVER_URL).")
    var server = ProcessInfo.processInfo.environment["PARLEY_SERVER_URL"] ?? "http://127.0.0.1:8080"

    @Option(help: "The operator credential the server was started with (environment: PARLEY_OPERATOR_TOKEN).")
    var operatorToken: String?

    /// Runs `body` with an HTTP client and the authorization header.
    func with<T>(_ body: (HTTPClient, String) async throws -> T) async throws -> T {
        guard let operatorToken = operatorToken ?? ProcessInfo.processInfo.environment["PARLEY_OPERATOR_TOKEN"] else {
            throw ValidationError("pass --operator-token or set PARLEY_OPERATOR_TOKEN")
        }
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let result = try await body(http, "Bearer \(operatorToken)")
            try await http.shutdown()
            return result
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    /// One JSON request to the operator API; the decoded answer.
    func call<Body: Encodable, Answer: Decodable>(
        _ method: HTTPMethod, _ path: String, body: Body?, http: HTTPClient, authorization: String
    ) async throws -> Answer {
        try await Self.decode(try await execute(method, path, body: body, http: http, authorization: authorization))
    }

    /// One JSON request to the operator API whose answer has no body (2xx expected).
    func send<Body: Encodable>(_ method: HTTPMethod, _ path: String, body: Body?, http: HTTPClient, authorization: String) async throws {
        _ = try await Self.body(of: try await execute(method, path, body: body, http: http, authorization: authorization))
    }

    /// The answer's JSON decoded, or the server's error as a ``ValidationError``.
    static func decode<T: Decodable>(_ response: HTTPClientResponse) async throws -> T {
        try JSONDecoder().decode(T.self, from: try await body(of: response))
    }

    /// The answer's body if its status is 2xx; else the server's error as a ``ValidationError``.
    private static func body(of response: HTTPClientResponse) async throws -> Data {
        let body = Data((try await response.body.collect(upTo: 1 << 20)).readableBytesView)
        guard (200..<300).contains(response.status.code) else {
            let message = (try? JSONDecoder().decode(APIErrorBody.self, from: body)).map { "\($0.code): \($0.message)" }
            throw ValidationError("server answered \(response.status.code)\(message.map { " (\($0))" } ?? "")")
        }
        return body
    }

    private func execute<Body: Encodable>(
        _ method: HTTPMethod, _ path: String, body: Body?, http: HTTPClient, authorization: String
    ) async throws -> HTTPClientResponse {
        var request = HTTPClientRequest(url: server + path)
        request.method = method
        request.headers.add(name: "Authorization", value: authorization)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        }
        return try await http.execute(request, timeout: .seconds(30))
    }
}
