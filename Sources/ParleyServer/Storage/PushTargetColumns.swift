import ParleyAPI

/// A push target as its columns: `provider` (`webpush`, `apns`, `fcm`), `address` (endpoint or token) and the
/// provider's extra fields.
struct PushTargetColumns {
    let provider: String
    let address: String
    let p256dh: String?
    let auth: String?
    let topic: String?
    let sandbox: Bool

    init(_ target: PushTarget) {
        provider = target.provider
        switch target {
        case .webPush(let endpoint, let p256dh, let auth):
            (address, self.p256dh, self.auth, topic, sandbox) = (endpoint, p256dh, auth, nil, false)
        case .apns(let token, let topic, let sandbox):
            (address, p256dh, auth, self.topic, self.sandbox) = (token, nil, nil, topic, sandbox)
        case .fcm(let token):
            (address, p256dh, auth, topic, sandbox) = (token, nil, nil, nil, false)
        }
    }

    init(provider: String, address: String, p256dh: String?, auth: String?, topic: String?, sandbox: Bool) {
        (self.provider, self.address, self.p256dh, self.auth, self.topic, self.sandbox) = (provider, address, p256dh, auth, topic, sandbox)
    }

    /// The target these columns hold, or `nil` for a row no version of the server writes.
    var target: PushTarget? {
        switch provider {
        case "webpush":
            guard let p256dh, let auth else { return nil }
            return .webPush(endpoint: address, p256dh: p256dh, auth: auth)
        case "apns":
            guard let topic else { return nil }
            return .apns(token: address, topic: topic, sandbox: sandbox)
        case "fcm":
            return .fcm(token: address)
        default:
            return nil
        }
    }
}
