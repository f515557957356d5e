/// Why a streaming door (`/api/v1/events`, `/v1/receive`) gave up on a client.
public enum StalledClientError: Error, CustomStringConvertible {
    /// The client left a write untaken for the stall limit.
    case stalled(limit: Duration)

    public var description: String {
        switch self {
        case .stalled(let limit):
            "the client took nothing for \(limit); it can reconnect with its last id and catch up"
        }
    }
}
