import AsyncHTTPClient
import Foundation
import NIOCore
import ParleyAPI

/// Sends Web Push messages (RFC 8030) to a subscription's push service: the payload encrypted for the subscription
/// (RFC 8291, ``WebPushEncryption``) and the request signed with the server's VAPID key (RFC 8292).
struct WebPushSender: Sendable {
    let vapid: VAPIDSigner
    /// Seconds the push service keeps an undelivered push (the `TTL` header).
    let timeToLiveSeconds: Int

    /// Pushes `payload` to the subscription (`endpoint`, `p256dh`, `auth`).
    func send(_ payload: [UInt8], endpoint: String, p256dh: String, auth: String, client: HTTPClient, timeout: Duration, now: Date) async
        -> PushOutcome
    {
        guard let url = URL(string: endpoint), let publicKey = Base64URL.decode(p256dh), let secret = Base64URL.decode(auth) else {
            return .rejected(reason: "the subscription is malformed")
        }
        let body: [UInt8]
        let authorization: String
        do {
            body = try WebPushEncryption.encrypt(payload, p256dh: publicKey, auth: secret)
            authorization = try vapid.authorization(for: url, now: now)
        } catch {
            return .rejected(reason: "\(error)")
        }
        var request = HTTPClientRequest(url: endpoint)
        request.method = .POST
        request.headers.add(name: "TTL", value: String(timeToLiveSeconds))
        request.headers.add(name: "Urgency", value: "high")
        // Replaces a wake-up still queued at the push service: a device offline for a while gets one, not a backlog.
        request.headers.add(name: "Topic", value: "parley-wake")
        request.headers.add(name: "Content-Encoding", value: "aes128gcm")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.headers.add(name: "Authorization", value: authorization)
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await PushHTTPResponse.execute(request, on: client, timeout: timeout)
            switch response.status {
            case 200..<300: return .delivered
            case 404, 410: return .unregistered(reason: "the push service answered \(response.status)")
            case 429, 500..<600: return .retry(after: response.retryAfter, reason: "the push service answered \(response.status)")
            default: return .rejected(reason: "the push service answered \(response.status): \(response.summary)")
            }
        } catch {
            return .retry(after: nil, reason: "\(error)")
        }
    }
}
