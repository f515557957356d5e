/// Why `parley rest-api` gave up on a client.
enum RestAPIError: Error, CustomStringConvertible {
    /// A `/v1/receive` client left a frame untaken for ``RestAPIServer/subscriberStallLimit``.
    case subscriberStalled

    var description: String {
        switch self {
        case .subscriberStalled: "the client stopped taking frames; it can reconnect with ?since= and catch up"
        }
    }
}
