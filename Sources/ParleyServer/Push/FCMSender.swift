import AsyncHTTPClient
import Foundation
import NIOCore

/// Sends data messages through FCM's HTTP v1 API (`POST /v1/projects/{project}/messages:send`) with an OAuth access
/// token from the service account.
struct FCMSender: Sendable {
    let configuration: FCMConfiguration
    let tokens: FCMAccessTokens
    /// Seconds FCM keeps an undelivered message (`android.ttl`).
    let timeToLiveSeconds: Int

    init(configuration: FCMConfiguration, timeToLiveSeconds: Int) {
        self.configuration = configuration
        self.tokens = FCMAccessTokens(account: configuration.account)
        self.timeToLiveSeconds = timeToLiveSeconds
    }

    /// Pushes a content-free, high-priority data message to the registration `token`.
    func send(token registration: String, client: HTTPClient, timeout: Duration) async -> PushOutcome {
        let accessToken: String
        do {
            accessToken = try await tokens.token(client: client, timeout: timeout)
        } catch {
            return .retry(after: nil, reason: "\(error)")
        }
        struct Message: Encodable {
            struct Android: Encodable {
                let priority: String
                let collapse_key: String
                let ttl: String
            }
            let token: String
            let android: Android
            let data: [String: String]
        }
        struct Body: Encodable { let message: Message }
        let body = Body(
            message: Message(
                token: registration,
                android: .init(priority: "high", collapse_key: "parley-wake", ttl: "\(timeToLiveSeconds)s"),
                data: ["parley": "wake"]))
        var request = HTTPClientRequest(url: "\(configuration.apiURL)/v1/projects/\(configuration.account.projectId)/messages:send")
        request.method = .POST
        request.headers.add(name: "authorization", value: "Bearer \(accessToken)")
        request.headers.add(name: "content-type", value: "application/json")
        guard let encoded = try? JSONEncoder().encode(body) else { return .rejected(reason: "the message could not be encoded") }
        request.body = .bytes(ByteBuffer(data: encoded))
        do {
            let response = try await PushHTTPResponse.execute(request, on: client, timeout: timeout)
            let code = Self.errorCode(response)
            switch response.status {
            case 200: return .delivered
            // Only FCM's own word removes a target: a bare 404 may be a wrong URL or a proxy's.
            case 404 where code == "UNREGISTERED": return .unregistered(reason: "UNREGISTERED")
            case 401:
                // The token was revoked or expired early: the next attempt exchanges a fresh one.
                _ = try? await tokens.token(client: client, timeout: timeout, replacing: accessToken)
                return .retry(after: .zero, reason: "UNAUTHENTICATED")
            case 429, 500..<600: return .retry(after: response.retryAfter, reason: code ?? "status \(response.status)")
            default: return .rejected(reason: "FCM answered \(response.status) \(code ?? response.summary)")
            }
        } catch {
            return .retry(after: nil, reason: "\(error)")
        }
    }

    /// The `errorCode` of the `FcmError` detail in Google's error body, else its `status`.
    static func errorCode(_ response: PushHTTPResponse) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            let error = object["error"] as? [String: Any]
        else { return nil }
        let details = error["details"] as? [[String: Any]] ?? []
        return details.compactMap { $0["errorCode"] as? String }.first ?? error["status"] as? String
    }
}
