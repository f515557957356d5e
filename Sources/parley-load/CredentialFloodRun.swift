import AsyncHTTPClient
import Foundation
import Histogram
import NIOCore
import ParleyAPI
import ParleyKit
import Synchronization

/// A flood of wrong device credentials against one account, while `/health` and a legitimate device keep asking:
/// reports the flood's rate and the two probes' latency percentiles, and the server's CPU time per flood request.
struct CredentialFloodRun {
    let api: ParleyServerClient
    let http: HTTPClient
    let baseURL: String
    let requests: Int
    let concurrency: Int
    /// Offered requests per second in all; 0: as fast as the server answers.
    let rate: Int
    let serverPid: Int32?

    func execute() async throws -> String {
        let tag = UUID().uuidString.prefix(8).lowercased()
        let victim = try await LoadAccount.register(api, name: "victim-\(tag)")
        let normal = try await LoadAccount.register(api, name: "normal-\(tag)")
        let wrong = "Basic " + Data("\(victim.credentials.accountId).1:\(DeviceCredentials.makePassword())".utf8).base64EncodedString()
        let cpuBefore = serverPid.flatMap(cpuSeconds(pid:))
        let clock = ContinuousClock()
        let started = clock.now
        let floodDone = FloodState()

        async let health = probe(until: floodDone) { _ = try await get(APIRoutes.health, authorization: nil) }
        async let device = probe(until: floodDone) { _ = try await api.devices(as: normal.credentials) }
        let statuses = try await withThrowingTaskGroup(of: [UInt: Int].self) { group in
            let perWorker = requests / concurrency
            for worker in 0..<concurrency {
                let count = perWorker + (worker < requests % concurrency ? 1 : 0)
                group.addTask {
                    var statuses: [UInt: Int] = [:]
                    // Paced: each worker offers rate / concurrency requests per second, on a fixed schedule.
                    let interval: Duration? = rate > 0 ? .nanoseconds(Int64(1e9 * Double(concurrency) / Double(rate))) : nil
                    var next = clock.now
                    for _ in 0..<count {
                        if let interval {
                            next = next.advanced(by: interval)
                            try? await Task.sleep(until: next, clock: clock)
                        }
                        let status = (try? await get(APIRoutes.devices, authorization: wrong)) ?? 0
                        statuses[status, default: 0] += 1
                    }
                    return statuses
                }
            }
            var total: [UInt: Int] = [:]
            for try await part in group { total.merge(part, uniquingKeysWith: +) }
            return total
        }
        let elapsed = clock.now - started
        floodDone.finish()
        let cpuAfter = serverPid.flatMap(cpuSeconds(pid:))
        let (healthLatency, deviceLatency) = try await (health, device)

        let elapsedSeconds = seconds(elapsed)
        func line(_ name: String, _ latency: Histogram<UInt64>) -> String {
            func ms(_ percentile: Double) -> String { String(format: "%.2f", Double(latency.valueAtPercentile(percentile)) / 1000) }
            return "\(name) ms: p50 \(ms(50)), p99 \(ms(99)), max \(String(format: "%.2f", Double(latency.max) / 1000))"
                + " (\(latency.totalCount) requests)"
        }
        var lines = [
            "wrong-credential flood: \(requests) requests, \(concurrency) workers, offered \(rate == 0 ? "as fast as possible" : "\(rate)/s"), \(String(format: "%.1f", elapsedSeconds)) s"
                + " (\(String(format: "%.0f", Double(requests) / elapsedSeconds))/s); statuses: "
                + statuses.sorted { $0.key < $1.key }.map { "\($0.key == 0 ? "failed" : String($0.key)) ×\($0.value)" }.joined(
                    separator: ", "),
            line("/health during the flood", healthLatency),
            line("a legitimate device's GET /v1/devices during the flood", deviceLatency),
        ]
        if let cpuBefore, let cpuAfter {
            lines.append(
                "server CPU: \(String(format: "%.2f", cpuAfter - cpuBefore)) s in all, "
                    + "\(String(format: "%.1f", (cpuAfter - cpuBefore) * 1e6 / Double(requests))) µs per flood request")
        }
        return lines.joined(separator: "\n")
    }

    /// Sends `body` one request after another until the flood is over; returns the latencies (µs).
    private func probe(until state: FloodState, _ body: @escaping @Sendable () async throws -> Void) async throws -> Histogram<UInt64> {
        var latency = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        let clock = ContinuousClock()
        while !state.isFinished {
            let before = clock.now
            try await body()
            let taken = clock.now - before
            _ = latency.record(microseconds(taken))
            try await Task.sleep(for: .milliseconds(5))
        }
        return latency
    }

    /// One GET; the status code.
    private func get(_ path: String, authorization: String?) async throws -> UInt {
        var request = HTTPClientRequest(url: baseURL + path)
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        let response = try await http.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        return response.status.code
    }
}

/// Whether the flood has ended, shared by the probes.
final class FloodState: Sendable {
    private let finished = Mutex(false)
    var isFinished: Bool { finished.withLock { $0 } }
    func finish() { finished.withLock { $0 = true } }
}
