import Foundation
import ParleyAPI

extension Envelope {
    /// The wire form of a stored envelope (content in base64).
    init(stored envelope: StoredEnvelope) {
        self.init(
            guid: envelope.guid, sourceAccountId: envelope.sourceAccountId, sourceDeviceId: envelope.sourceDeviceId,
            type: envelope.type, content: Data(envelope.content).base64EncodedString(), timestamp: envelope.timestamp,
            serverTimestamp: envelope.serverTimestamp)
    }
}
