/// A REST request carried over the device's WebSocket (Signal's clients send over their socket the same way): the
/// server answers with a ``SocketResponse`` of the same `id`, exactly as the HTTP route would, without an HTTP request
/// per message. Requests are answered as they complete, not necessarily in order.
///
/// ```json
/// { "type": "request", "request": { "id": 7, "verb": "PUT", "path": "/v1/messages/<account>",
///                                    "headers": ["Idempotency-Key:8e03978e"], "body": "{…}" } }
/// ```
public struct SocketRequest: Codable, Sendable, Equatable {
    /// Chosen by the client, echoed in the response.
    public let id: UInt64
    /// The HTTP method.
    public let verb: String
    /// The route's path, as for HTTP.
    public let path: String
    /// HTTP headers as `Name:value` strings, as Signal's socket requests carry them (today the server reads
    /// `Idempotency-Key`); absent when there are none.
    public let headers: [String]?
    /// The HTTP body: JSON text.
    public let body: String?

    /// A request.
    public init(id: UInt64, verb: String, path: String, headers: [String]? = nil, body: String?) {
        self.id = id
        self.verb = verb
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// The value of the first header named `name` (compared without regard to case), without surrounding spaces.
    public func header(_ name: String) -> String? {
        for header in headers ?? [] {
            guard let colon = header.firstIndex(of: ":"), header[..<colon].lowercased() == name.lowercased() else { continue }
            var value = header[header.index(after: colon)...]
            while value.first == " " || value.first == "\t" { value = value.dropFirst() }
            while value.last == " " || value.last == "\t" { value = value.dropLast() }
            return String(value)
        }
        return nil
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
