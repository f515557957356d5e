/// The request in a ``BinarySocketMessage``.
public struct BinarySocketRequest: Sendable, Equatable {
    /// Chosen by the sender, echoed in the response.
    public let id: UInt64
    /// The HTTP method.
    public let verb: String
    /// The route's path.
    public let path: String
    /// HTTP headers as `Name:value` strings.
    public let headers: [String]
    /// The body: JSON for the client's requests and for `PUT /api/v1/ephemeral`, protobuf for `PUT /api/v1/message`.
    public let body: [UInt8]?

    /// A request.
    public init(id: UInt64, verb: String, path: String, headers: [String] = [], body: [UInt8]? = nil) {
        self.id = id
        self.verb = verb
        self.path = path
        self.headers = headers
        self.body = body
    }
}
