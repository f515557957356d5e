import Foundation
import FuzzHarness
import ParleyAPI

/// The socket's binary frames (Signal's WebSocketMessage framing, `?frames=binary`), which both the server and the
/// client read from the other side: a frame is a request or a response or a typed error; whatever parses serializes and
/// parses back to itself; a request's body parsed as an envelope does the same.
enum SocketFrameTargets {
    static let binary = FuzzTarget(
        run: { input in
            if let message = try? BinarySocketMessage(serializedBytes: input) {
                invariant((try? BinarySocketMessage(serializedBytes: message.serializedBytes())) == message, "a frame round-trips")
                switch message {
                case .request(let request):
                    if let envelope = try? BinarySocketMessage.envelope(request.body ?? []) {
                        guard let content = Data(base64Encoded: envelope.content) else {
                            invariant(false, "content is base64")
                            return
                        }
                        let again = BinarySocketMessage.envelope(
                            guid: envelope.guid, sourceAccountId: envelope.sourceAccountId, sourceDeviceId: envelope.sourceDeviceId,
                            type: envelope.type, content: Array(content), timestamp: envelope.timestamp,
                            serverTimestamp: envelope.serverTimestamp)
                        invariant((try? BinarySocketMessage.envelope(again)) == envelope, "an envelope round-trips")
                    }
                case .response:
                    break
                }
            }
            // The same bytes as an envelope body on their own.
            _ = try? BinarySocketMessage.envelope(input)
        },
        seeds: {
            let envelope = BinarySocketMessage.envelope(
                guid: "2b4f6a1e-0000-4000-8000-000000000001", sourceAccountId: "9d0c2e4a-0000-4000-8000-000000000002", sourceDeviceId: 1,
                type: 3, content: [1, 2, 3], timestamp: 1_700_000_000_000, serverTimestamp: 1_700_000_000_001)
            return [
                BinarySocketMessage.request(BinarySocketRequest(id: 1, verb: "PUT", path: APIRoutes.socketDeliveredMessage, body: envelope))
                    .serializedBytes(),
                BinarySocketMessage.request(
                    BinarySocketRequest(
                        id: 7, verb: "PUT", path: "/v1/messages/a", headers: ["Idempotency-Key:k1"],
                        body: Array(#"{"messages":[],"timestamp":1}"#.utf8))
                ).serializedBytes(),
                BinarySocketMessage.response(BinarySocketResponse(id: 1, status: 200, message: "OK")).serializedBytes(),
                BinarySocketMessage.response(BinarySocketResponse(id: 0, status: 400, message: "bad_frame", body: Array("{}".utf8)))
                    .serializedBytes(),
                envelope,
            ]
        })
}
