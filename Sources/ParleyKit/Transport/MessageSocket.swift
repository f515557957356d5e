import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOCore
import ParleyAPI

/// A device's WebSocket to the server: receives envelopes (acknowledge each once it is stored), `queue_empty`
/// and ephemeral events; sends acks, ephemeral events and messages (request frames the server answers like HTTP).
///
/// By default the socket asks for binary frames (``ParleyAPI/BinarySocketMessage``, Signal's `WebSocketMessage`
/// framing): nothing is JSON-encoded twice and envelopes arrive as protobuf. Callers see the same ``SocketFrame``s
/// either way; text frames (a server without binary frames) are read as JSON and answered in kind.
public struct MessageSocket: Sendable {
    /// The server's base URL (`http://…` or `https://…`).
    public let baseURL: String
    /// The device it connects as.
    public let device: DeviceCredentials
    /// Whether the socket asks the server for binary frames.
    public let binaryFrames: Bool
    /// How often the socket pings the server. A ping still unanswered when the next is due closes the socket, so a
    /// connection that died or was half-closed without a close frame ends ``run(_:)`` (and `listen` reconnects)
    /// instead of waiting for ever. The answer is read between frames: a frame whose handling holds the loop longer
    /// than an interval (`listen` runs the job queue after `queue_empty`) may close a healthy socket too — hence two
    /// minutes by default, and `listen` reconnects.
    public let pingInterval: Duration
    private let logger: Logger

    /// How long a close frame this side sent waits for the server's before the connection is dropped.
    static let closeTimeout: Duration = .seconds(5)

    /// A socket for `device` on the server at `baseURL`; `binaryFrames: false` asks for JSON text frames.
    public init(
        baseURL: String, device: DeviceCredentials, binaryFrames: Bool = true, pingInterval: Duration = .seconds(120),
        logger: Logger = Logger(label: "parley-socket")
    ) {
        self.baseURL = baseURL
        self.device = device
        self.binaryFrames = binaryFrames
        self.pingInterval = pingInterval
        self.logger = logger
    }

    /// Connects and calls `onFrame` for every frame from the server, in order, until the socket closes or
    /// `onFrame` returns `false`. `onFrame` gets a ``Writer`` to acknowledge and send with.
    public func run(_ onFrame: @escaping @Sendable (SocketFrame, Writer) async throws -> Bool) async throws {
        var url = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        if url.hasPrefix("http") { url = "ws" + url.dropFirst(4) }
        url += APIRoutes.webSocket + (binaryFrames ? "?" + APIRoutes.binaryFramesQuery : "")
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: 1 << 20, additionalHeaders: [.authorization: device.authorization], closeTimeout: Self.closeTimeout,
            autoPing: .enabled(timePeriod: pingInterval))
        let pending = PendingSocketRequests()
        defer { pending.close() }
        try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
            let writer = Writer(outbound: outbound, pending: pending, deliveries: SocketDeliveries())
            defer { pending.close() }
            for try await message in inbound.messages(maxSize: 1 << 20) {
                let frame: SocketFrame
                switch message {
                case .text(let text):
                    do {
                        frame = try JSONDecoder().decode(SocketFrame.self, from: Data(text.utf8))
                    } catch {
                        throw ParleyError.server(.malformedResponse("socket frame: \(error)"))
                    }
                    if frame.type == .response, let response = frame.response {
                        pending.deliver(response)
                        continue
                    }
                case .binary(let buffer):
                    guard let binaryFrame = try await writer.frame(from: Array(buffer.readableBytesView)) else { continue }
                    frame = binaryFrame
                }
                guard try await onFrame(frame, writer) else { break }
            }
        }
    }

    /// Sends frames on an open socket.
    public struct Writer: Sendable {
        let outbound: WebSocketOutboundWriter
        let pending: PendingSocketRequests
        /// The server's envelope requests not yet answered, on a binary socket.
        let deliveries: SocketDeliveries

        /// Sends one ciphertext per device of `accountId` over the socket (a `PUT /v1/messages/{account}` request
        /// frame) and waits for the server's answer, as ``ParleyServerClient/send(_:to:as:idempotencyKey:)`` does over HTTP. Several
        /// sends may be in flight at once; each gets its own answer. With `idempotencyKey`, a repeat of the send gets the
        /// first answer and stores nothing again.
        public func send(_ request: SendMessagesRequest, to accountId: String, idempotencyKey: String? = nil) async throws -> SendOutcome {
            let id = pending.nextId()
            let body = try JSONEncoder().encode(request)
            let path = APIRoutes.messages(to: ParleyServerClient.pathComponent(accountId))
            let headers = idempotencyKey.map { ["\(APIRoutes.idempotencyKeyHeader):\($0)"] }
            if deliveries.binary {
                try await write(.request(BinarySocketRequest(id: id, verb: "PUT", path: path, headers: headers ?? [], body: Array(body))))
            } else {
                try await send(
                    .request(
                        SocketRequest(
                            id: id, verb: "PUT", path: path, headers: headers,
                            body: String(decoding: body, as: UTF8.self))))
            }
            let response = try await pending.response(for: id)
            return try SendOutcome(status: response.status, body: Data((response.body ?? "").utf8))
        }

        /// Tells the server the envelope is safely stored: it deletes it. On a binary socket this answers the request
        /// that carried the envelope; an envelope acknowledged already (or not delivered on this socket) needs nothing.
        public func acknowledge(_ guid: String) async throws {
            if let id = deliveries.answer(guid) {
                try await write(.response(BinarySocketResponse(id: id, status: 200, message: "OK")))
            } else if !deliveries.binary {
                try await writeText(.ack(guid))
            }
        }

        /// Sends an ephemeral event (never stored by the server).
        public func send(_ event: EphemeralEvent) async throws { try await send(.event(event)) }

        /// Sends any frame: as JSON text, or on a binary socket as the binary message that carries it (an ack as the
        /// answer to its envelope's request, an event as a `PUT /v1/ephemeral` request, a request as itself).
        public func send(_ frame: SocketFrame) async throws {
            guard deliveries.binary else {
                try await writeText(frame)
                return
            }
            switch frame.type {
            case .ack:
                try await acknowledge(frame.guid ?? "")
            case .ephemeral:
                let body = try JSONEncoder().encode(frame.ephemeral)
                try await write(
                    .request(
                        BinarySocketRequest(
                            id: pending.nextUnawaitedId(), verb: "PUT", path: APIRoutes.socketEphemeral,
                            body: Array(body))))
            case .request:
                guard let request = frame.request else { return }
                try await write(
                    .request(
                        BinarySocketRequest(
                            id: request.id, verb: request.verb, path: request.path,
                            headers: request.headers ?? [], body: request.body.map { Array($0.utf8) })))
            case .envelope, .queueEmpty, .error, .response:
                try await writeText(frame)
            }
        }

        private func writeText(_ frame: SocketFrame) async throws {
            try await outbound.write(.text(String(decoding: try JSONEncoder().encode(frame), as: UTF8.self)))
        }

        private func write(_ message: BinarySocketMessage) async throws {
            try await outbound.write(.binary(ByteBuffer(bytes: message.serializedBytes())))
        }

        /// What a binary frame from the server means to the caller: an envelope, queue empty or an event (requests,
        /// answered here except envelopes, which ``acknowledge(_:)`` answers), a failure (a response nobody waits
        /// for, with an error status), or nothing (a response a send waits for).
        func frame(from bytes: [UInt8]) async throws -> SocketFrame? {
            deliveries.binary = true
            let message: BinarySocketMessage
            do {
                message = try BinarySocketMessage(serializedBytes: bytes)
            } catch {
                throw ParleyError.server(.malformedResponse("socket frame: \(error)"))
            }
            switch message {
            case .response(let binary):
                let response = SocketResponse(
                    id: binary.id, status: Int(binary.status), body: binary.body.map { String(decoding: $0, as: UTF8.self) })
                guard !pending.deliver(response), response.status >= 400 else { return nil }
                let error = response.body.flatMap { try? JSONDecoder().decode(APIErrorBody.self, from: Data($0.utf8)) }
                return .failure(code: error?.code ?? binary.message ?? "error", message: error?.message ?? "status \(binary.status)")
            case .request(let request) where request.path == APIRoutes.socketDeliveredMessage:
                let envelope: Envelope
                do {
                    envelope = try BinarySocketMessage.envelope(request.body ?? [])
                } catch {
                    throw ParleyError.server(.malformedResponse("socket envelope: \(error)"))
                }
                deliveries.delivered(envelope.guid, in: request.id)
                return .deliver(envelope)
            case .request(let request) where request.path == APIRoutes.socketQueueEmpty:
                try await write(.response(BinarySocketResponse(id: request.id, status: 200, message: "OK")))
                return .queueEmpty
            case .request(let request) where request.path == APIRoutes.socketDeliveredEphemeral:
                let event: EphemeralEvent
                do {
                    event = try JSONDecoder().decode(EphemeralEvent.self, from: Data(request.body ?? []))
                } catch {
                    throw ParleyError.server(.malformedResponse("socket event: \(error)"))
                }
                try await write(.response(BinarySocketResponse(id: request.id, status: 200, message: "OK")))
                return .event(event)
            case .request(let request):
                try await write(.response(BinarySocketResponse(id: request.id, status: 404, message: "Not Found")))
                return nil
            }
        }
    }
}
