/// One WebSocket text frame on `GET /v1/websocket`, in either direction, as JSON.
///
/// Server → client: ``SocketFrameType/envelope`` (acknowledge it with ``SocketFrameType/ack``),
/// ``SocketFrameType/queueEmpty`` once the mailbox stored at connect time has been delivered,
/// ``SocketFrameType/ephemeral`` (never stored), ``SocketFrameType/response`` and ``SocketFrameType/error``.
/// Client → server: ``SocketFrameType/ack``, ``SocketFrameType/ephemeral`` and ``SocketFrameType/request``.
///
/// ```json
/// { "type": "envelope", "envelope": { "guid": "…", … } }
/// { "type": "ack", "guid": "…" }
/// ```
public struct SocketFrame: Codable, Sendable, Equatable {
    /// What the frame carries; the matching field below is set.
    public let type: SocketFrameType
    /// For ``SocketFrameType/envelope``.
    public let envelope: Envelope?
    /// For ``SocketFrameType/ack``: the envelope delivered and stored by the client.
    public let guid: String?
    /// For ``SocketFrameType/ephemeral``.
    public let ephemeral: EphemeralEvent?
    /// For ``SocketFrameType/error``: what the server refused (the socket stays open).
    public let error: APIErrorBody?
    /// For ``SocketFrameType/request``.
    public let request: SocketRequest?
    /// For ``SocketFrameType/response``.
    public let response: SocketResponse?

    /// A frame; prefer the static constructors.
    public init(
        type: SocketFrameType, envelope: Envelope? = nil, guid: String? = nil, ephemeral: EphemeralEvent? = nil,
        error: APIErrorBody? = nil, request: SocketRequest? = nil, response: SocketResponse? = nil
    ) {
        self.type = type
        self.envelope = envelope
        self.guid = guid
        self.ephemeral = ephemeral
        self.error = error
        self.request = request
        self.response = response
    }

    /// An envelope for the client.
    public static func deliver(_ envelope: Envelope) -> SocketFrame { SocketFrame(type: .envelope, envelope: envelope) }
    /// The stored mailbox has been delivered.
    public static let queueEmpty = SocketFrame(type: .queueEmpty)
    /// The client acknowledges an envelope: the server deletes it.
    public static func ack(_ guid: String) -> SocketFrame { SocketFrame(type: .ack, guid: guid) }
    /// An ephemeral event, either way.
    public static func event(_ event: EphemeralEvent) -> SocketFrame { SocketFrame(type: .ephemeral, ephemeral: event) }
    /// A REST request over the socket.
    public static func request(_ request: SocketRequest) -> SocketFrame { SocketFrame(type: .request, request: request) }
    /// The answer to a ``request(_:)``.
    public static func response(_ response: SocketResponse) -> SocketFrame { SocketFrame(type: .response, response: response) }
    /// The server could not process a client frame.
    public static func failure(code: String, message: String) -> SocketFrame {
        SocketFrame(type: .error, error: APIErrorBody(code: code, message: message))
    }
}

/// The kinds of ``SocketFrame``.
public enum SocketFrameType: String, Codable, Sendable {
    /// Server → client: one envelope from the mailbox.
    case envelope
    /// Server → client: everything stored at connect time has been sent.
    case queueEmpty = "queue_empty"
    /// Client → server: delete this envelope, it is safely stored.
    case ack
    /// Either way: a typing indicator or similar signal, relayed to connected devices only and never stored.
    case ephemeral
    /// Server → client: a client frame was refused.
    case error
    /// Client → server: a REST request carried over the socket (``SocketRequest``).
    case request
    /// Server → client: the answer to a ``request`` (``SocketResponse``).
    case response
}
