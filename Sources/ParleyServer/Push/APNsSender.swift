import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// Sends background notifications through APNs over HTTP/2 with token authentication: an ES256 JWT from the
/// operator's key, reused for 50 minutes (Apple refuses tokens older than an hour and renewals more often than every
/// 20 minutes).
final class APNsSender: Sendable {
    let configuration: APNsConfiguration
    /// Seconds APNs keeps trying to deliver (`apns-expiration`).
    let timeToLiveSeconds: Int
    private let token = Mutex<(jwt: String, issued: Date)?>(nil)
    /// How long one provider token is used.
    static let tokenLifetime: TimeInterval = 50 * 60

    init(configuration: APNsConfiguration, timeToLiveSeconds: Int) {
        self.configuration = configuration
        self.timeToLiveSeconds = timeToLiveSeconds
    }

    /// The current provider token, made anew when it is older than ``tokenLifetime`` or is `stale` (Apple said it
    /// expired). Checked and made under one lock, so concurrent pushes renew it once (Apple refuses frequent renewals).
    func providerToken(now: Date, replacing stale: String? = nil) throws -> String {
        try token.withLock { current in
            if let current, current.jwt != stale, now.timeIntervalSince(current.issued) < Self.tokenLifetime, now >= current.issued {
                return current.jwt
            }
            let jwt = try JSONWebToken.es256(
                header: ["kid": configuration.keyId],
                claims: ["iss": .string(configuration.teamId), "iat": .integer(Int64(now.timeIntervalSince1970))],
                key: configuration.key)
            current = (jwt, now)
            return jwt
        }
    }

    /// Pushes a content-free background notification to `deviceToken` of the app `topic`.
    func send(deviceToken: String, topic: String, sandbox: Bool, client: HTTPClient, timeout: Duration, now: Date) async -> PushOutcome {
        let base = sandbox ? configuration.sandboxURL : configuration.productionURL
        var request = HTTPClientRequest(url: "\(base)/3/device/\(deviceToken)")
        request.method = .POST
        let jwt: String
        do {
            jwt = try providerToken(now: now)
        } catch {
            return .rejected(reason: "the provider token could not be signed: \(error)")
        }
        request.headers.add(name: "authorization", value: "bearer \(jwt)")
        request.headers.add(name: "apns-topic", value: topic)
        // Background pushes wake the app to connect; Apple requires priority 5 for them.
        request.headers.add(name: "apns-push-type", value: "background")
        request.headers.add(name: "apns-priority", value: "5")
        request.headers.add(name: "apns-collapse-id", value: "parley-wake")
        request.headers.add(name: "apns-expiration", value: String(Int64(now.timeIntervalSince1970) + Int64(timeToLiveSeconds)))
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: #"{"aps":{"content-available":1}}"#))
        do {
            let response = try await PushHTTPResponse.execute(request, on: client, timeout: timeout)
            let reason = response.jsonString("reason") ?? "status \(response.status)"
            switch (response.status, reason) {
            case (200, _): return .delivered
            case (410, _), (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"): return .unregistered(reason: reason)
            case (403, "ExpiredProviderToken"):
                _ = try? providerToken(now: now, replacing: jwt)
                return .retry(after: .zero, reason: reason)
            case (429, _), (500..<600, _): return .retry(after: response.retryAfter, reason: reason)
            default: return .rejected(reason: "APNs answered \(response.status) \(reason)")
            }
        } catch {
            return .retry(after: nil, reason: "\(error)")
        }
    }
}
