import Foundation
import HummingbirdWebSocket
import Logging
import NIOCore
import ParleyAPI
import Synchronization

/// One device's WebSocket: drains its mailbox, pushes new envelopes as they are stored, deletes each envelope
/// when the device acknowledges it, relays ephemeral events both ways, and answers request frames (sends) through
/// ``SocketRequestHandler``, at most ``ServerLimits/socketRequestsInFlight`` at a time.
///
/// Delivery is flow-controlled: at most ``ServerLimits/socketWindow`` envelopes are in flight (sent, not yet
/// acknowledged). The mailbox in the store is the truth: live pushes are a shortcut taken only while the session
/// is caught up, and anything it could not push is read back from the store in order.
///
/// A class, not a struct: every suspended async call of a session keeps `self` in its frame, and an idle socket keeps
/// several suspended (the reader, the delivery loop); a reference there instead of a copy of these fields is what
/// makes 10,000 idle sockets fit in the memory they do (BENCHMARKS.md).
final class SocketSession: Sendable {
    let device: AuthenticatedDevice
    /// Checks, once the socket is subscribed, that the device's sign-in still stands.
    let authenticator: DeviceAuthenticator
    let store: any MailboxStore
    /// Deletes acknowledged envelopes together with other sockets' acknowledgements.
    let acknowledgements: AcknowledgementGroupCommit
    let hub: DeliveryHub
    let limits: ServerLimits
    let rateLimiter: RateLimiter
    let metrics: ServerMetrics
    /// Answers request frames.
    let requests: SocketRequestHandler
    /// Set when the socket speaks binary frames (``ParleyAPI/BinarySocketMessage``): the server's requests on it.
    let binaryDeliveries: BinaryDeliveries?
    let logger: Logger

    init(
        device: AuthenticatedDevice, authenticator: DeviceAuthenticator, store: any MailboxStore,
        acknowledgements: AcknowledgementGroupCommit, hub: DeliveryHub,
        limits: ServerLimits, rateLimiter: RateLimiter, metrics: ServerMetrics, requests: SocketRequestHandler,
        binaryDeliveries: BinaryDeliveries?, logger: Logger
    ) {
        self.device = device
        self.authenticator = authenticator
        self.store = store
        self.acknowledgements = acknowledgements
        self.hub = hub
        self.limits = limits
        self.rateLimiter = rateLimiter
        self.metrics = metrics
        self.requests = requests
        self.binaryDeliveries = binaryDeliveries
        self.logger = logger
    }

    private var address: DeviceAddress { DeviceAddress(accountId: device.account.id, deviceId: device.device.deviceId) }

    /// Runs until the client closes the socket, the server shuts down or a newer connection displaces this one.
    /// Acknowledgements that arrived before the close are all applied before it returns.
    /// - Returns: the error reading ended with, if any (a protocol violation such as an oversized message or invalid
    ///   UTF-8): the caller rethrows it so that the WebSocket library closes with its code (1009, 1007, 1002).
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async -> (any Error)? {
        // One queue of inputs for the delivery loop, fed by the hub directly (no task of its own per socket).
        let queue = SocketInputQueue(byteBudget: limits.socketQueueBytes)
        let subscription = hub.subscribe(address, credential: device.device.passwordHash) { event in queue.push(.hub(event)) }
        let acks = AckBuffer()
        let readError = Mutex<(any Error)?>(nil)
        // Set once the server has closed the socket (displaced, revoked, delivery failed): nothing the client sends
        // after that is acted on — a client that ignores the close frame cannot keep sending as the device.
        let closedByServer = ClosedByServer()
        // One group for the socket's life: the delivery loop and the answers to request frames, at most
        // `socketRequestsInFlight` at a time. A second group for the answers would stay allocated on the reader's task
        // of every idle socket; a discarding group frees each answer's task as soon as it is done.
        let answerSlots = AnswerSlots(count: limits.socketRequestsInFlight)
        let signIn = SignInGate()
        await withDiscardingTaskGroup { group in
            group.addTask { [self] in
                do {
                    try await deliver(queue, acks: acks, outbound: outbound, closedByServer: closedByServer, signIn: signIn)
                } catch {
                    closedByServer.set()
                    signIn.decide(stands: false)
                    await deliveryStopped(error, outbound)
                }
            }
            // Nothing the client sends is acted on before the delivery loop has read the sign-in again; if it no
            // longer stands, nothing is read at all.
            if await signIn.wait() {
                do {
                    for try await message in inbound.messages(maxSize: limits.socketFrameBytes) {
                        if closedByServer.isSet { break }
                        let request: SocketRequest
                        switch read(message, acks: acks, queue: queue) {
                        case .nothing:
                            continue
                        case .reply(let frame):
                            try await outbound.write(frame)
                            continue
                        case .replyIfOpen(let frame):
                            // A client gone before the answer does not end the reading.
                            try? await outbound.write(frame)
                            continue
                        case .answer(let sent):
                            request = sent
                        }
                        if !answerSlots.tryTake() { await answerSlots.take() }
                        // Closed by the server while the reader waited for a slot: the request is not acted on.
                        if closedByServer.isSet {
                            answerSlots.giveBack()
                            break
                        }
                        group.addTask { [self] in
                            defer { answerSlots.giveBack() }
                            let response = await requests.respond(to: request)
                            // A socket that closed meanwhile gets no answer; the client sends again after reconnecting.
                            try? await send(.response(response), outbound)
                        }
                    }
                } catch {
                    readEnded(error, readError)
                }
            }
            // Ends the hub forwarding, then lets the delivery loop apply the acks still queued and stop; the group waits
            // for it and for the answers still running.
            hub.unsubscribe(address, id: subscription)
            queue.finish()
        }
        return readError.withLock { $0 }
    }

    /// The delivery loop failed (the store): the socket closes; the mailbox is intact (nothing is deleted before its
    /// ack), and the client reconnects and drains it. Apart from ``run(inbound:outbound:)`` so that the delivery task's
    /// frame, kept for the socket's life, does not hold what logging the failure needs.
    private func deliveryStopped(_ error: any Error, _ outbound: WebSocketOutboundWriter) async {
        logger.warning("socket delivery stopped", metadata: ["device": "\(address)", "error": "\(error)"])
        try? await outbound.close(.unexpectedServerError, reason: "delivery failed")
    }

    /// Keeps the error the reading ended with. Out of line: building the log's metadata is not part of the reader's
    /// frame.
    @inline(never)
    private func readEnded(_ error: any Error, _ readError: borrowing Mutex<(any Error)?>) {
        logger.debug("socket read ended", metadata: ["device": "\(address)", "error": "\(error)"])
        readError.withLock { $0 = error }
    }

    /// What the reader does with a client's frame once it has been read. Small, as it sits in the reader's frame:
    /// replies come encoded, a request boxed.
    private enum ReadStep {
        /// Nothing more (an ack handed to the delivery loop, a response that needs no action).
        case nothing
        /// Write this frame back; a failed write ends the reading.
        case reply(WebSocketOutboundWriter.OutboundFrame)
        /// Write this frame back if the socket is still open.
        case replyIfOpen(WebSocketOutboundWriter.OutboundFrame)
        /// A request to answer on a task of its own.
        indirect case answer(SocketRequest)

        /// A reply of `frame` as `socket` writes it (nothing if it cannot be encoded, which JSON frames of these kinds
        /// always can).
        static func reply(_ frame: SocketFrame, on socket: SocketSession, ifOpen: Bool = false) -> ReadStep {
            guard let encoded = try? socket.encode(frame) else { return .nothing }
            return ifOpen ? .replyIfOpen(encoded) : .reply(encoded)
        }
    }

    /// A frame from the client: acks go to the delivery loop (in order with deliveries), ephemeral events are relayed,
    /// a request is returned for the reader to answer.
    ///
    /// Synchronous on purpose, as everything the reader does per frame except its writes: an async call here would
    /// take its frame from the reader's task allocator, and an idle socket's task keeps the memory its deepest call
    /// ever took (BENCHMARKS.md, idle sockets).
    @inline(never)
    private func read(_ message: WebSocketMessage, acks: AckBuffer, queue: SocketInputQueue) -> ReadStep {
        if let binaryDeliveries {
            return readBinary(message, deliveries: binaryDeliveries, acks: acks, queue: queue)
        }
        guard case .text(let text) = message, let frame = try? JSONDecoder().decode(SocketFrame.self, from: Data(text.utf8)) else {
            return .reply(.failure(code: "bad_frame", message: "frames are JSON text SocketFrames"), on: self)
        }
        switch frame.type {
        case .ack:
            // Envelope guids are UUIDs the server made: anything else acknowledges nothing, and never reaches the store.
            guard let guid = frame.guid, guid.utf8.count == 36, UUID(uuidString: guid) != nil else {
                return .reply(.failure(code: "bad_frame", message: "an ack needs the envelope guid (a UUID)"), on: self)
            }
            if acks.append(guid.lowercased()) { queue.push(.acks) }
        case .ephemeral:
            do {
                try relay(frame.ephemeral)
            } catch {
                // relay throws ServerErrors (a bad event, the rate limit); anything else is refused as a bad frame.
                let body = (error as? ServerError)?.body ?? APIErrorBody(code: "bad_frame", message: "the ephemeral event was refused")
                return .reply(.failure(code: body.code, message: body.message), on: self)
            }
        case .request:
            guard let request = frame.request else {
                return .reply(.failure(code: "bad_frame", message: "a request frame needs a request"), on: self)
            }
            return .answer(request)
        case .envelope, .queueEmpty, .error, .response:
            return .reply(.failure(code: "bad_frame", message: "clients send only ack, ephemeral and request frames"), on: self)
        }
        return .nothing
    }

    /// A frame from a binary socket: a `2xx` response acknowledges the envelope its request carried, an ephemeral
    /// request is relayed and answered, a send request is returned for the reader to answer.
    @inline(never)
    private func readBinary(_ message: WebSocketMessage, deliveries: BinaryDeliveries, acks: AckBuffer, queue: SocketInputQueue) -> ReadStep
    {
        let frame: BinarySocketMessage
        do throws(BinarySocketMessageError) {
            guard case .binary(let buffer) = message else {
                throw BinarySocketMessageError("frames on this socket are binary WebSocketMessages")
            }
            frame = try BinarySocketMessage(serializedBytes: Array(buffer.readableBytesView))
        } catch {
            return .reply(.failure(code: "bad_frame", message: error.message), on: self)
        }
        switch frame {
        case .response(let response):
            // Another request's answer (queue empty, an event), or an envelope the client did not store: nothing to do.
            if let guid = deliveries.acknowledged(response.id, status: response.status), acks.append(guid) { queue.push(.acks) }
            return .nothing
        case .request(let request) where request.path == APIRoutes.socketEphemeral:
            var status = 200
            var body: String?
            do {
                guard request.verb == "PUT" else {
                    throw ServerError.clientError(.methodNotAllowed, "only PUT \(APIRoutes.socketEphemeral)")
                }
                let event = try JSONCoding.decode(EphemeralEvent.self, from: Data(request.body ?? []))
                try relay(event)
            } catch {
                let failure = error as? ServerError ?? .badRequest("an ephemeral request's body is a JSON EphemeralEvent")
                (status, body) = (Int(failure.status.code), JSONCoding.text(failure.body))
            }
            // As on a JSON socket, a client gone before the answer does not end the reading.
            return .reply(.response(SocketResponse(id: request.id, status: status, body: body)), on: self, ifOpen: true)
        case .request(let request):
            return .answer(
                SocketRequest(
                    id: request.id, verb: request.verb, path: request.path, headers: request.headers,
                    body: request.body.map { String(decoding: $0, as: UTF8.self) }))
        }
    }

    private func relay(_ event: EphemeralEvent?) throws {
        guard let event else { throw ServerError.badRequest("an ephemeral frame carries an event") }
        try EphemeralRelay.relay(event, from: device, hub: hub, limits: limits, rateLimiter: rateLimiter)
    }

    /// The close reason of a socket whose device was removed, whose credential was replaced or whose account was
    /// disabled.
    private static let revokedReason = "this device's sign-in was revoked: sign in again"

    /// Closes a socket whose sign-in no longer stands. Out of line, as ``deliveryStopped(_:_:)``: the delivery loop's
    /// frame, kept for the socket's life, does not hold what closing needs.
    @inline(never)
    private func closeRevoked(_ outbound: WebSocketOutboundWriter) async {
        try? await outbound.close(.policyViolation, reason: Self.revokedReason)
    }

    /// The delivery loop: one task owns the in-flight window, so deliveries and acks never race. Once the socket
    /// cannot be written (closed, displaced) it keeps applying acks until the inputs end.
    private func deliver(
        _ queue: SocketInputQueue, acks: AckBuffer, outbound: WebSocketOutboundWriter, closedByServer: ClosedByServer,
        signIn: SignInGate
    ) async throws {
        // Flat on purpose (no closures wrapping the writes): this task lives as long as the socket and keeps the memory
        // its deepest call chain ever took.
        var window = DeliveryWindow(capacity: limits.socketWindow)
        var writable = true
        // What this device's previous socket acknowledged is deleted before the mailbox is read.
        await acknowledgements.settled(address)
        // The sign-in is read again now that the socket is subscribed: a revocation that landed between the upgrade's
        // sign-in and the subscription found no connection to close (one that lands after this read finds it).
        if try await authenticator.signInStands(device) {
            signIn.decide(stands: true)
            do { try await refill(&window, outbound) } catch let failure as StoreReadFailure { throw failure.error } catch {
                writable = false
            }
        } else {
            // The reader stops without reading, which ends the subscription and then this loop.
            writable = false
            closedByServer.set()
            signIn.decide(stands: false)
            await closeRevoked(outbound)
        }
        for await input in queue.inputs {
            queue.taken(input)
            // Inputs were dropped: nothing goes out live until the store has been read again (in mailbox order).
            if queue.takeOverflow() { window.needsRead = true }
            if case .acks = input {
                let guids = acks.takeAll()
                let deleted = try await acknowledgements.delete(
                    DeviceAcknowledgements(accountId: address.accountId, deviceId: address.deviceId, guids: guids))
                metrics.messagesDelivered.increment(by: Int64(deleted))
                for guid in guids { window.acknowledged(guid) }
            }
            // A socket that cannot be written (closed, displaced) only applies acks until the inputs end.
            guard writable else { continue }
            do {
                switch input {
                case .acks:
                    break
                case .hub(.envelope(let envelope)):
                    if window.acceptsLive(envelope.guid) { try await push(envelope, &window, outbound) }
                case .hub(.mailboxChanged):
                    window.needsRead = true
                case .hub(.ephemeral(let event)):
                    try await send(.event(event), outbound)
                case .hub(.displaced), .hub(.revoked):
                    writable = false
                    closedByServer.set()
                    let reason =
                        if case .hub(.displaced) = input { "another connection of this device took over" } else { Self.revokedReason }
                    try await outbound.close(.policyViolation, reason: reason)
                    continue
                }
                try await refill(&window, outbound)
            } catch let failure as StoreReadFailure {
                // The store, not the socket, failed: the socket closes (1011) and the client reconnects, rather than
                // staying open with nothing delivered and no push sent.
                throw failure.error
            } catch {
                writable = false
            }
        }
    }

    /// Reads the mailbox while the window has room and the store may hold envelopes not yet sent.
    private func refill(_ window: inout DeliveryWindow, _ outbound: WebSocketOutboundWriter) async throws {
        while window.needsRead && window.hasRoom {
            let notBefore = limits.oldestKept(now: ServerClock.milliseconds())
            let page: [StoredEnvelope]
            do {
                page = try await store.pendingEnvelopes(
                    accountId: address.accountId, deviceId: address.deviceId, notBefore: notBefore, limit: window.capacity)
            } catch {
                throw StoreReadFailure(error: error)
            }
            var sent = 0
            for envelope in page where window.hasRoom && window.isNew(envelope.guid) {
                try await push(envelope, &window, outbound)
                sent += 1
            }
            if page.count < window.capacity {
                window.needsRead = false
                if !window.announcedQueueEmpty {
                    window.announcedQueueEmpty = true
                    try await send(.queueEmpty, outbound)
                }
            } else if sent == 0 {
                return  // a full page, all in flight: wait for acks
            }
        }
    }

    private func push(_ envelope: StoredEnvelope, _ window: inout DeliveryWindow, _ outbound: WebSocketOutboundWriter) async throws {
        window.sent(envelope.guid)
        try await outbound.write(try encode(envelope))
        metrics.messagesPushed.increment()
    }

    /// Writes `frame` as JSON text, or on a binary socket as the ``ParleyAPI/BinarySocketMessage`` that carries it.
    private func send(_ frame: SocketFrame, _ outbound: WebSocketOutboundWriter) async throws {
        guard let encoded = try encode(frame) else { return }
        try await outbound.write(encoded)
    }

    // The encoders are synchronous and kept out of line: what they build then lives on the thread's stack, not in the
    // async frames of the delivery loop and the reader, whose task allocators keep their deepest call's memory for the
    // socket's life.

    /// An envelope as this socket's frame: a binary `PUT /api/v1/message` request, or a JSON envelope frame.
    @inline(never)
    private func encode(_ envelope: StoredEnvelope) throws -> WebSocketOutboundWriter.OutboundFrame {
        guard let binaryDeliveries else { return try Self.jsonText(.deliver(Envelope(stored: envelope))) }
        let body = BinarySocketMessage.envelope(
            guid: envelope.guid, sourceAccountId: envelope.sourceAccountId, sourceDeviceId: envelope.sourceDeviceId,
            type: envelope.type, content: envelope.content, timestamp: envelope.timestamp,
            serverTimestamp: envelope.serverTimestamp)
        let request = BinarySocketRequest(
            id: binaryDeliveries.id(delivering: envelope.guid), verb: "PUT",
            path: APIRoutes.socketDeliveredMessage, body: body)
        return .binary(ByteBuffer(bytes: BinarySocketMessage.request(request).serializedBytes()))
    }

    /// `frame` as a JSON socket writes it: a text frame.
    private static func jsonText(_ frame: SocketFrame) throws -> WebSocketOutboundWriter.OutboundFrame {
        .text(String(decoding: try JSONEncoder().encode(frame), as: UTF8.self))
    }

    /// `frame` as this socket writes it, or `nil` for a kind a binary socket does not carry.
    @inline(never)
    fileprivate func encode(_ frame: SocketFrame) throws -> WebSocketOutboundWriter.OutboundFrame? {
        guard let binaryDeliveries else { return try Self.jsonText(frame) }
        let message: BinarySocketMessage
        switch frame.type {
        case .response:
            let response = frame.response ?? SocketResponse(id: 0, status: 500, body: nil)
            message = .response(
                BinarySocketResponse(
                    id: response.id, status: UInt32(clamping: response.status),
                    body: response.body.map { Array($0.utf8) }))
        case .error:
            // A frame that could not be read has no id to answer: id 0, the error code as the message.
            let error = frame.error ?? APIErrorBody(code: "bad_frame", message: "")
            message = .response(BinarySocketResponse(id: 0, status: 400, message: error.code, body: Array(JSONCoding.text(error).utf8)))
        case .queueEmpty:
            message = .request(BinarySocketRequest(id: binaryDeliveries.nextId(), verb: "PUT", path: APIRoutes.socketQueueEmpty))
        case .ephemeral:
            let body = try JSONEncoder().encode(frame.ephemeral)
            message = .request(
                BinarySocketRequest(
                    id: binaryDeliveries.nextId(), verb: "PUT", path: APIRoutes.socketDeliveredEphemeral,
                    body: Array(body)))
        case .envelope, .ack, .request:
            // Envelopes go out through push(_:_:_:); the server sends no acks or requests of these kinds.
            return nil
        }
        return .binary(ByteBuffer(bytes: message.serializedBytes()))
    }
}

/// A mailbox read failed during delivery (told apart from a failed write to the socket, which only stops writing).
private struct StoreReadFailure: Error {
    let error: any Error
}

/// Whether the server closed a socket (shared by its reader and its delivery loop).
private final class ClosedByServer: Sendable {
    private let closed = Mutex(false)

    /// Once set, stays set.
    func set() { closed.withLock { $0 = true } }

    var isSet: Bool { closed.withLock { $0 } }
}
