import AsyncHTTPClient
import Foundation
import NIOCore

/// A provider's answer, read with a bound: status, the `Retry-After` delay and at most 64 KiB of body.
struct PushHTTPResponse: Sendable {
    let status: Int
    let retryAfter: Duration?
    let body: [UInt8]

    /// The largest body read (providers answer errors in a few hundred bytes).
    static let maximumBodyBytes = 64 * 1024
    /// The longest `Retry-After` honoured; a provider asking for more is retried after this.
    static let maximumRetryAfter: Duration = .seconds(600)

    /// Executes `request` on `client` within `timeout`.
    static func execute(_ request: HTTPClientRequest, on client: HTTPClient, timeout: Duration) async throws -> PushHTTPResponse {
        let response = try await client.execute(request, timeout: .milliseconds(Int64(timeout.components.seconds * 1000)))
        var body = ByteBuffer()
        do {
            body = try await response.body.collect(upTo: maximumBodyBytes)
        } catch is NIOTooManyBytesError {
            body = ByteBuffer()
        }
        return PushHTTPResponse(
            status: Int(response.status.code), retryAfter: retryAfter(response.headers.first(name: "retry-after")),
            body: Array(buffer: body))
    }

    /// `Retry-After` as seconds or an HTTP date (RFC 9110 §10.2.3), capped; `nil` when absent or unreadable.
    static func retryAfter(_ value: String?, now: Date = Date()) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return min(.seconds(seconds), maximumRetryAfter) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return min(.milliseconds(max(0, Int64(date.timeIntervalSince(now) * 1000))), maximumRetryAfter)
    }

    /// A string field of the JSON body (`reason` for APNs), or `nil`.
    func jsonString(_ key: String) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(body))).flatMap { ($0 as? [String: Any])?[key] as? String }
    }

    /// The body as text for logs, shortened.
    var summary: String { String(decoding: body.prefix(200), as: UTF8.self) }
}
