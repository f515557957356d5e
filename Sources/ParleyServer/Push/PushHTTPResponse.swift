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

    /// The request's whole exchange — connection, request, response head and body — took longer than its limit.
    struct TimedOut: Error, CustomStringConvertible {
        let limit: Duration
        var description: String { "no complete answer within \(limit)" }
    }

    /// Executes `request` on `client`; the whole exchange, body included, has `timeout` (a provider, or a Web Push
    /// endpoint a device named, cannot hold a push by answering slowly).
    static func execute(_ request: HTTPClientRequest, on client: HTTPClient, timeout: Duration) async throws -> PushHTTPResponse {
        try await withThrowingTaskGroup(of: PushHTTPResponse?.self) { group in
            group.addTask {
                let response = try await client.execute(request, timeout: .seconds(Int64(max(1, timeout.components.seconds))))
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
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let response = first else { throw TimedOut(limit: timeout) }
            return response
        }
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
        let seconds = min(max(0, date.timeIntervalSince(now)), Double(maximumRetryAfter.components.seconds))
        return .milliseconds(Int64(seconds * 1000))
    }

    /// A string field of the JSON body (`reason` for APNs), or `nil`.
    func jsonString(_ key: String) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(body))).flatMap { ($0 as? [String: Any])?[key] as? String }
    }

    /// The body as text for logs, shortened.
    var summary: String { String(decoding: body.prefix(200), as: UTF8.self) }
}
