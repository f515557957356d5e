/// A REST request carried over the device's WebSocket (Signal's clients send over their socket the same way): the
/// server answers with a ``SocketResponse`` of the same `id`, exactly as the HTTP route would, without an HTTP request
/// per message. Requests are answered as they complete, not necessarily in order.
///
/// ```json
/// { "type": "request", "request": { "id": 7, "verb": "PUT", "path": "/v1/messages/<account>", "body": "{…}" } }
/// ```
public struct SocketRequest: Codable, Sendable, Equatable {
    /// Chosen by the client, echoed in the response.
    public let id: UInt64
    /// The HTTP method.
    public let verb: String
    /// The route's path, as for HTTP.
    public let path: String
    /// The HTTP body: JSON text.
    public let body: String?

    /// A request.
    public init(id: UInt64, verb: String, path: String, body: String?) {
        self.id = id
        self.verb = verb
        self.path = path
        self.body = body
    }
}

/// The answer to a ``SocketRequest``: the status and JSON body the HTTP route answers with (an ``APIErrorBody`` for
/// 4xx and 5xx).
public struct SocketResponse: Codable, Sendable, Equatable {
    /// The request's id.
    public let id: UInt64
    /// The HTTP status.
    public let status: Int
    /// The HTTP body: JSON text.
    public let body: String?

    /// A response.
    public init(id: UInt64, status: Int, body: String?) {
        self.id = id
        self.status = status
        self.body = body
    }
}
