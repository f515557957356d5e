import Foundation

/// Stand-in for the app's HTTP client that seed 002's key-server client calls (`request(endpoint:method:body:)`,
/// `.shared`): bodies are encoded to JSON and answered by a ``SeedKeyServer`` as the signed-in `user`, and answers are
/// decoded from JSON, so the seed's DTOs travel as they would over HTTP.
final class APIClient: Sendable {
    let user: String
    let server: SeedKeyServer

    init(user: String, server: SeedKeyServer) {
        self.user = user
        self.server = server
    }

    /// The seed's default argument; the tests always pass their own client.
    static let shared = APIClient(user: "nobody", server: SeedKeyServer())

    func request<Response: Decodable, Body: Encodable>(endpoint: String, method: String, body: Body?) async throws -> Response {
        let requestBody = try body.map { try JSONEncoder().encode($0) }
        let answer = try server.handle(method: method, path: endpoint, body: requestBody, user: user)
        return try JSONDecoder().decode(Response.self, from: answer)
    }
}
