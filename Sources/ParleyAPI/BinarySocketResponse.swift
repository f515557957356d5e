/// The response in a ``BinarySocketMessage``.
public struct BinarySocketResponse: Sendable, Equatable {
    /// The request's id.
    public let id: UInt64
    /// The HTTP status.
    public let status: UInt32
    /// A short reason, as Signal's responses carry one (the server sets `bad_frame` here when it answers a frame it
    /// could not read, with id 0).
    public let message: String?
    /// The body: the HTTP route's JSON body.
    public let body: [UInt8]?

    /// A response.
    public init(id: UInt64, status: UInt32, message: String? = nil, body: [UInt8]? = nil) {
        self.id = id
        self.status = status
        self.message = message
        self.body = body
    }
}
