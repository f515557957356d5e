import Foundation
import SwiftProtobuf

/// One binary frame on a device's WebSocket opened with ``APIRoutes/binaryFramesQuery`` (`?frames=binary`): Signal's
/// `WebSocketMessage` framing (protobuf, `Protos/ParleyAPI/SocketMessages.proto`), a request or the response to one.
///
/// Both sides send requests and answer the other's:
/// - the client sends `PUT /v1/messages/{account}` (JSON body, as over HTTP) and `PUT /v1/ephemeral` (an
///   ``EphemeralEvent`` as JSON); the server answers each with the HTTP route's status and JSON body;
/// - the server sends `PUT /api/v1/message` (an envelope, ``BinarySocketMessage/envelope(_:)``),
///   `PUT /api/v1/queue/empty` and `PUT /api/v1/ephemeral`; a `200` response to a message request acknowledges that
///   envelope (the server deletes it), as Signal's clients acknowledge theirs.
///
/// Compared with JSON text frames, nothing is encoded twice: bodies are bytes, and the envelope is protobuf.
public enum BinarySocketMessage: Sendable, Equatable {
    /// A request; the other side answers it with a ``response(_:)`` of the same id.
    case request(BinarySocketRequest)
    /// The answer to a request.
    case response(BinarySocketResponse)

    /// Parses a frame's bytes.
    /// - Throws: ``BinarySocketMessageError`` when the bytes are not a request or response frame.
    public init(serializedBytes bytes: [UInt8]) throws(BinarySocketMessageError) {
        let message: Parley_Socket_WebSocketMessage
        do {
            message = try Parley_Socket_WebSocketMessage(serializedBytes: bytes)
        } catch {
            throw BinarySocketMessageError("not a WebSocketMessage: \(error)")
        }
        switch message.type {
        case .request:
            guard message.hasRequest else { throw BinarySocketMessageError("a REQUEST frame without its request") }
            let request = message.request
            // The number of headers is the receiver's to bound (the server answers more than 32 with a 400 under the
            // request's id); the frame's size bounds it here.
            guard request.hasID, request.hasVerb, request.hasPath else {
                throw BinarySocketMessageError("a request needs an id, a verb and a path")
            }
            self = .request(
                BinarySocketRequest(
                    id: request.id, verb: request.verb, path: request.path, headers: request.headers,
                    body: request.hasBody ? [UInt8](request.body) : nil))
        case .response:
            guard message.hasResponse else { throw BinarySocketMessageError("a RESPONSE frame without its response") }
            let response = message.response
            guard response.hasID, response.hasStatus else { throw BinarySocketMessageError("a response needs an id and a status") }
            self = .response(
                BinarySocketResponse(
                    id: response.id, status: response.status, message: response.hasMessage ? response.message : nil,
                    body: response.hasBody ? [UInt8](response.body) : nil))
        case .unknown:
            throw BinarySocketMessageError("a frame is a REQUEST or a RESPONSE")
        }
    }

    /// The frame's bytes.
    public func serializedBytes() -> [UInt8] {
        var message = Parley_Socket_WebSocketMessage()
        switch self {
        case .request(let request):
            message.type = .request
            message.request.id = request.id
            message.request.verb = request.verb
            message.request.path = request.path
            message.request.headers = request.headers
            if let body = request.body { message.request.body = Data(body) }
        case .response(let response):
            message.type = .response
            message.response.id = response.id
            message.response.status = response.status
            if let text = response.message { message.response.message = text }
            if let body = response.body { message.response.body = Data(body) }
        }
        // Serializing a message whose fields are all set cannot fail.
        return (try? message.serializedBytes()) ?? []
    }

    /// The bytes of an envelope, the body of the server's `PUT /api/v1/message` request (`content` is the ciphertext
    /// itself, not base64).
    public static func envelope(
        guid: String, sourceAccountId: String?, sourceDeviceId: UInt32?, type: UInt8,
        content: [UInt8], timestamp: UInt64, serverTimestamp: UInt64
    ) -> [UInt8] {
        var envelope = Parley_Socket_SocketEnvelope()
        envelope.serverGuid = guid
        if let sourceAccountId { envelope.sourceServiceID = sourceAccountId }
        if let sourceDeviceId { envelope.sourceDevice = sourceDeviceId }
        envelope.type = UInt32(type)
        envelope.content = Data(content)
        envelope.timestamp = timestamp
        envelope.serverTimestamp = serverTimestamp
        return (try? envelope.serializedBytes()) ?? []
    }

    /// The envelope in the body of a `PUT /api/v1/message` request, as ``Envelope`` (content in base64).
    /// - Throws: ``BinarySocketMessageError`` when a field is missing or out of range.
    public static func envelope(_ bytes: [UInt8]) throws(BinarySocketMessageError) -> Envelope {
        let envelope: Parley_Socket_SocketEnvelope
        do {
            envelope = try Parley_Socket_SocketEnvelope(serializedBytes: bytes)
        } catch {
            throw BinarySocketMessageError("not an envelope: \(error)")
        }
        guard envelope.hasServerGuid, envelope.hasType, envelope.hasContent, envelope.hasTimestamp, envelope.hasServerTimestamp
        else { throw BinarySocketMessageError("an envelope needs a guid, a type, content and both timestamps") }
        guard let type = UInt8(exactly: envelope.type) else {
            throw BinarySocketMessageError("envelope type \(envelope.type) is out of range")
        }
        return Envelope(
            guid: envelope.serverGuid, sourceAccountId: envelope.hasSourceServiceID ? envelope.sourceServiceID : nil,
            sourceDeviceId: envelope.hasSourceDevice ? envelope.sourceDevice : nil, type: type,
            content: envelope.content.base64EncodedString(), timestamp: envelope.timestamp,
            serverTimestamp: envelope.serverTimestamp)
    }
}
