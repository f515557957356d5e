import Foundation
import HummingbirdWSClient
import Logging
import ParleyAPI

/// A device's WebSocket to the server: receives envelopes (acknowledge each once it is stored), `queue_empty`
/// and ephemeral events; sends acks, ephemeral events and messages (request frames the server answers like HTTP).
public struct MessageSocket: Sendable {
    /// The server's base URL (`http://…` or `https://…`).
    public let baseURL: String
    /// The device it connects as.
    public let device: DeviceCredentials
    private let logger: Logger

    /// A socket for `device` on the server at `baseURL`.
    public init(baseURL: String, device: DeviceCredentials, logger: Logger = Logger(label: "parley-socket")) {
        self.baseURL = baseURL
        self.device = device
        self.logger = logger
    }

    /// Connects and calls `onFrame` for every frame from the server, in order, until the socket closes or
    /// `onFrame` returns `false`. `onFrame` gets a ``Writer`` to acknowledge and send with.
    public func run(_ onFrame: @escaping @Sendable (SocketFrame, Writer) async throws -> Bool) async throws {
        var url = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        if url.hasPrefix("http") { url = "ws" + url.dropFirst(4) }
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: 1 << 20, additionalHeaders: [.authorization: device.authorization])
        let pending = PendingSocketRequests()
        defer { pending.close() }
        try await WebSocketClient.connect(url: url + APIRoutes.webSocket, configuration: configuration, logger: logger) { inbound, outbound, _ in
            let writer = Writer(outbound: outbound, pending: pending)
            defer { pending.close() }
            for try await message in inbound.messages(maxSize: 1 << 20) {
                guard case .text(let text) = message else { continue }
                let frame: SocketFrame
                do {
                    frame = try JSONDecoder().decode(SocketFrame.self, from: Data(text.utf8))
                } catch {
                    throw ParleyError.server(.malformedResponse("socket frame: \(error)"))
                }
                if frame.type == .response, let response = frame.response {
                    pending.deliver(response)
                    continue
                }
                guard try await onFrame(frame, writer) else { break }
            }
        }
    }

    /// Sends frames on an open socket.
    public struct Writer: Sendable {
        let outbound: WebSocketOutboundWriter
        let pending: PendingSocketRequests

        /// Sends one ciphertext per device of `accountId` over the socket (a `PUT /v1/messages/{account}` request
        /// frame) and waits for the server's answer, as ``ParleyServerClient/send(_:to:as:idempotencyKey:)`` does over HTTP. Several
        /// sends may be in flight at once; each gets its own answer. With `idempotencyKey`, a repeat of the send gets the
        /// first answer and stores nothing again.
        public func send(_ request: SendMessagesRequest, to accountId: String, idempotencyKey: String? = nil) async throws -> SendOutcome {
            let id = pending.nextId()
            let body = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
            try await send(.request(SocketRequest(
                id: id, verb: "PUT", path: APIRoutes.messages(to: ParleyServerClient.pathComponent(accountId)),
                headers: idempotencyKey.map { ["\(APIRoutes.idempotencyKeyHeader):\($0)"] }, body: body)))
            let response = try await pending.response(for: id)
            return try SendOutcome(status: response.status, body: Data((response.body ?? "").utf8))
        }

        /// Tells the server the envelope is safely stored: it deletes it.
        public func acknowledge(_ guid: String) async throws { try await send(.ack(guid)) }

        /// Sends an ephemeral event (never stored by the server).
        public func send(_ event: EphemeralEvent) async throws { try await send(.event(event)) }

        /// Sends any frame.
        public func send(_ frame: SocketFrame) async throws {
            try await outbound.write(.text(String(decoding: try JSONEncoder().encode(frame), as: UTF8.self)))
        }
    }
}
