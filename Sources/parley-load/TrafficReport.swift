import Foundation
import Histogram

/// What one traffic run measured.
struct TrafficReport {
    let clients: Int
    let targetRate: Int
    let seconds: Double
    let setupSeconds: Double
    let accepted: Int
    let delivered: Int
    let rejected: Int
    let errors: [String: Int]
    let latency: Histogram<UInt64>
    /// CPU seconds the server and this generator used while sending (user + system, from /proc).
    let serverCPU: Double?
    let generatorCPU: Double?

    func render(serverMemory: Int?) -> String {
        func ms(_ percentile: Double) -> String { String(format: "%.2f", Double(latency.valueAtPercentile(percentile)) / 1000) }
        var lines = [
            "clients: \(clients), target rate: \(targetRate == 0 ? "as fast as possible" : "\(targetRate)/s"), "
                + "measured for \(String(format: "%.1f", seconds)) s (setup \(String(format: "%.1f", setupSeconds)) s)",
            "accepted: \(accepted) (\(String(format: "%.0f", Double(accepted) / seconds))/s)  "
                + "delivered: \(delivered) (\(String(format: "%.0f", Double(delivered) / seconds))/s)  409/410: \(rejected)",
            "send→receive latency ms: p50 \(ms(50)), p90 \(ms(90)), p99 \(ms(99)), p99.9 \(ms(99.9)), max "
                + String(format: "%.2f", Double(latency.max) / 1000) + " (\(latency.totalCount) samples)",
        ]
        if !errors.isEmpty { lines.append("errors: " + errors.map { "\($0.key) ×\($0.value)" }.sorted().joined(separator: ", ")) }
        let messages = Double(max(accepted, 1))
        if let serverCPU, let generatorCPU {
            lines.append(
                "CPU per accepted message: server \(String(format: "%.0f", serverCPU * 1e6 / messages)) µs, "
                    + "load generator \(String(format: "%.0f", generatorCPU * 1e6 / messages)) µs "
                    + "(\(String(format: "%.2f", serverCPU / seconds)) and \(String(format: "%.2f", generatorCPU / seconds)) cores)")
        }
        if let serverMemory { lines.append("server RSS: \(serverMemory / 1024) MiB") }
        return lines.joined(separator: "\n")
    }
}
