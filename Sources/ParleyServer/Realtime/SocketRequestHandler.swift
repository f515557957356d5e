import Foundation
import ParleyAPI

/// REST requests carried over a device's socket (``ParleyAPI/SocketRequest``): a front door onto the same services as
/// the HTTP routes, answered with the HTTP route's status and JSON body. It parses and presents; the rules live in the
/// services. Today it carries `PUT /v1/messages/{account}`, so a connected client sends without an HTTP request per
/// message (acknowledgements already travel as `ack` frames); any other route is a 404 response.
struct SocketRequestHandler: Sendable {
    /// The socket's authenticated device: every request is made as it.
    let device: AuthenticatedDevice
    let sender: SendService

    /// The response to `request`; failures are error responses, never a closed socket.
    func respond(to request: SocketRequest) async -> SocketResponse {
        do {
            let (status, body) = try await route(request)
            return SocketResponse(id: request.id, status: status, body: body)
        } catch {
            let failure = error as? ServerError ?? .internalFailure("\(error)")
            return SocketResponse(id: request.id, status: Int(failure.status.code), body: JSONCoding.text(failure.body))
        }
    }

    private func route(_ request: SocketRequest) async throws -> (Int, String) {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].isEmpty, parts[1] == "v1", parts[2] == "messages", !parts[3].isEmpty else {
            throw ServerError.notFound("\(request.path.prefix(100)) is not available over the socket (only PUT /v1/messages/{account})")
        }
        guard request.verb == "PUT" else {
            throw ServerError.clientError(.methodNotAllowed, "only PUT /v1/messages/{account} is carried over the socket")
        }
        guard (request.headers ?? []).count <= 32 else { throw ServerError.badRequest("a socket request carries at most 32 headers") }
        let key = try IdempotencyKey(header: request.header(IdempotencyKey.headerName))
        let body = try JSONCoding.decode(SendMessagesRequest.self, from: Data((request.body ?? "").utf8))
        let outcome = try await sender.send(body, to: String(parts[3]), from: .device(device), idempotencyKey: key)
        return (Int(outcome.status.code), JSONCoding.text(outcome.body))
    }
}
