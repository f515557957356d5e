import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore

@testable import ParleyCompat

/// Requests to the REST routes of a ``CompatHarness``'s account, through Hummingbird's router as a server would run them.
struct RestClient: Sendable {
    let client: any TestClientProtocol

    /// The status and JSON body (`nil` when there is none) of `method uri` with `body`.
    func call(
        _ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil, headers: HTTPFields = [:]
    ) async throws -> (status: HTTPResponse.Status, body: JSONValue?) {
        let response = try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        let data = Data(buffer: response.body)
        return (response.status, data.isEmpty ? nil : try JSONDecoder().decode(JSONValue.self, from: data))
    }

    /// The raw body of `GET uri`.
    func bytes(_ uri: String) async throws -> (status: HTTPResponse.Status, body: Data) {
        let response = try await client.execute(uri: uri, method: .get)
        return (response.status, Data(buffer: response.body))
    }
}

extension CompatHarness {
    /// Runs `test` against the REST routes of this harness's account.
    func rest(_ test: @escaping @Sendable (RestClient) async throws -> Void) async throws {
        let app = Application(router: try routes.router())
        try await app.test(.router) { client in try await test(RestClient(client: client)) }
    }
}

/// `{"error": message}`, signal-cli-rest-api's error body.
func restError(_ message: String) -> JSONValue { .object(["error": .string(message)]) }
