/// Where the server wakes a device that is not connected when messages wait for it (`PUT /v1/devices/self/push`).
///
/// A device has at most one target. Pushes carry nothing about the messages: the device connects and drains its
/// mailbox. On the wire exactly one of three keys:
///
/// ```json
/// {"webPush": {"endpoint": "https://push.example/up/abc", "p256dh": "BCVx…", "auth": "BTBZ…"}}
/// {"apns": {"token": "a1b2…", "topic": "org.example.app", "sandbox": false}}
/// {"fcm": {"token": "fGx…"}}
/// ```
public enum PushTarget: Codable, Sendable, Equatable {
    /// A Web Push subscription (RFC 8030, encrypted with RFC 8291): what UnifiedPush distributors such as ntfy take.
    /// `p256dh` is the subscription's P-256 public key (65 bytes, uncompressed) and `auth` its 16-byte secret, both
    /// URL-safe base64.
    case webPush(endpoint: String, p256dh: String, auth: String)
    /// An Apple Push Notification service device token (hex) for the app `topic` (its bundle id), in Apple's
    /// development environment when `sandbox`.
    case apns(token: String, topic: String, sandbox: Bool)
    /// A Firebase Cloud Messaging registration token.
    case fcm(token: String)

    /// The provider's name as metrics and the CLI say it: `webpush`, `apns` or `fcm`.
    public var provider: String {
        switch self {
        case .webPush: return "webpush"
        case .apns: return "apns"
        case .fcm: return "fcm"
        }
    }

    private enum CodingKeys: String, CodingKey { case webPush, apns, fcm }
    private struct WebPush: Codable {
        let endpoint: String
        let p256dh: String
        let auth: String
    }
    private struct APNs: Codable {
        let token: String
        let topic: String
        let sandbox: Bool?
    }
    private struct FCM: Codable { let token: String }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            let rule = APIValueError("a push target has exactly one of webPush, apns and fcm")
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: rule.message, underlyingError: rule))
        }
        switch key {
        case .webPush:
            let target = try container.decode(WebPush.self, forKey: .webPush)
            self = .webPush(endpoint: target.endpoint, p256dh: target.p256dh, auth: target.auth)
        case .apns:
            let target = try container.decode(APNs.self, forKey: .apns)
            self = .apns(token: target.token, topic: target.topic, sandbox: target.sandbox ?? false)
        case .fcm:
            self = .fcm(token: try container.decode(FCM.self, forKey: .fcm).token)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .webPush(let endpoint, let p256dh, let auth):
            try container.encode(WebPush(endpoint: endpoint, p256dh: p256dh, auth: auth), forKey: .webPush)
        case .apns(let token, let topic, let sandbox):
            try container.encode(APNs(token: token, topic: topic, sandbox: sandbox), forKey: .apns)
        case .fcm(let token):
            try container.encode(FCM(token: token), forKey: .fcm)
        }
    }
}
