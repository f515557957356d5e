/// What a provider answered to one push.
enum PushOutcome: Sendable, Equatable {
    /// Accepted for delivery.
    case delivered
    /// Try again later (429, 5xx, a connection failure, an expired provider token): after `after` when the provider
    /// said (`Retry-After`), else after the dispatcher's backoff.
    case retry(after: Duration?, reason: String)
    /// The target is gone (Web Push 404/410, APNs `Unregistered`/`BadDeviceToken`, FCM `UNREGISTERED`): remove it.
    case unregistered(reason: String)
    /// Refused for good for another reason (a malformed request, a key the provider rejects): not retried, logged.
    case rejected(reason: String)

    /// The `outcome` label of `parley_push_total`.
    var label: String {
        switch self {
        case .delivered: return "delivered"
        case .retry: return "retried"
        case .unregistered: return "unregistered"
        case .rejected: return "rejected"
        }
    }
}
