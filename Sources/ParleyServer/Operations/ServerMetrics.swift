import Foundation
import Prometheus

/// The server's Prometheus metrics, in a registry the `/metrics` route renders. One instance per server, passed in.
public final class ServerMetrics: Sendable {
    /// The registry behind `/metrics`.
    public let registry: PrometheusCollectorRegistry
    /// Envelopes stored for delivery (one per recipient device).
    let messagesAccepted: Counter
    /// Write transactions that stored envelopes (with group commit, one per batch of concurrent sends).
    let envelopeTransactions: Counter
    /// Transactions that deleted acknowledged envelopes (with group commit, one per batch of the sockets' acknowledgements).
    let acknowledgementTransactions: Counter
    /// Envelopes a device acknowledged (over its socket or `DELETE /v1/messages/{guid}`).
    let messagesDelivered: Counter
    /// Envelopes pushed over sockets (delivered or not yet acknowledged).
    let messagesPushed: Counter
    /// WebSocket connections open now.
    let socketsOpen: Gauge
    /// Envelopes waiting in all mailboxes, read from the store at each scrape.
    let mailboxDepth: Gauge
    /// Attachment bytes stored.
    let attachmentBytes: Counter
    /// Request latency.
    let requestDuration: DurationHistogram
    /// gRPC call latency.
    let grpcDuration: DurationHistogram
    /// Devices not pushed again because they were pushed within the coalescing window.
    let pushesCoalesced: Counter

    /// A fresh registry with the server's metrics.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        messagesAccepted = registry.makeCounter(
            descriptor: Self.name(
                "messages_accepted", unit: "total", help: "Envelopes stored for delivery, one per recipient device."))
        envelopeTransactions = registry.makeCounter(
            descriptor: Self.name(
                "envelope_transactions", unit: "total", help: "Write transactions that stored envelopes (one per group-commit batch)."))
        acknowledgementTransactions = registry.makeCounter(
            descriptor: Self.name(
                "acknowledgement_transactions", unit: "total",
                help: "Transactions that deleted envelopes acknowledged over sockets (one per group-commit batch)."))
        messagesDelivered = registry.makeCounter(
            descriptor: Self.name(
                "messages_delivered", unit: "total", help: "Envelopes acknowledged by their device."))
        messagesPushed = registry.makeCounter(
            descriptor: Self.name(
                "messages_pushed", unit: "total", help: "Envelopes sent over WebSockets."))
        socketsOpen = registry.makeGauge(descriptor: Self.name("websockets_open", help: "WebSocket connections open now."))
        mailboxDepth = registry.makeGauge(descriptor: Self.name("mailbox_depth", help: "Envelopes waiting in all mailboxes."))
        attachmentBytes = registry.makeCounter(
            descriptor: Self.name(
                "attachment_bytes", unit: "total", help: "Attachment bytes stored."))
        requestDuration = registry.makeDurationHistogram(
            descriptor: Self.name("http_request_duration", unit: "seconds", help: "HTTP request latency."),
            buckets: [
                .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(100),
                .milliseconds(500), .seconds(1), .seconds(5),
            ])
        grpcDuration = registry.makeDurationHistogram(
            descriptor: Self.name("grpc_request_duration", unit: "seconds", help: "gRPC call latency."),
            buckets: [
                .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(100),
                .milliseconds(500), .seconds(1), .seconds(5),
            ])
        pushesCoalesced = registry.makeCounter(
            descriptor: Self.name(
                "push_coalesced", unit: "total", help: "Offline devices not pushed again within the coalescing window."))
    }

    /// Counts one push attempt by provider (`webpush`, `apns`, `fcm`) and outcome (`delivered`, `retried`,
    /// `unregistered`, `rejected`, and `failed` when the retries ran out).
    func countPush(provider: String, outcome: String) {
        registry.makeCounter(
            descriptor: Self.name("push", unit: "total", help: "Push attempts, by provider and outcome."),
            labels: [("provider", provider), ("outcome", outcome)]
        ).increment()
    }

    /// Counts one gRPC call by method and status code, with its duration.
    func countGRPCCall(method: String, code: String, duration: Duration) {
        registry.makeCounter(
            descriptor: Self.name("grpc_requests", unit: "total", help: "gRPC calls, by method and status code."),
            labels: [("method", method), ("code", code)]
        ).increment()
        grpcDuration.record(duration)
    }

    /// Counts content-hash lookups by kind (`contains`, `batch`, `prefix`), hashes looked up.
    func countContentChecks(kind: String, hashes: Int) {
        registry.makeCounter(
            descriptor: Self.name("dcd_checks", unit: "total", help: "Content hashes checked, by kind of lookup."),
            labels: [("kind", kind)]
        ).increment(by: Int64(hashes))
    }

    /// Counts hits in a hash bank.
    func countContentHit(bank: String) {
        registry.makeCounter(
            descriptor: Self.name("dcd_hits", unit: "total", help: "Content hash lookups that found the hash, by bank."),
            labels: [("bank", bank)]
        ).increment()
    }

    /// Counts hashes stored, by bank (`seen` from clients, `blocked` by operators one at a time).
    func countContentStore(bank: String) {
        registry.makeCounter(
            descriptor: Self.name("dcd_stores", unit: "total", help: "Content hashes stored, by bank."),
            labels: [("bank", bank)]
        ).increment()
    }

    /// Counts import lines by outcome (`imported`, `duplicate`, `invalid`).
    func countImportLines(_ outcome: String, _ count: Int) {
        guard count > 0 else { return }
        registry.makeCounter(
            descriptor: Self.name("dcd_import_lines", unit: "total", help: "Lines of hash import files processed, by outcome."),
            labels: [("outcome", outcome)]
        ).increment(by: Int64(count))
    }

    /// Counts one answered request by method and status.
    func countRequest(method: String, status: Int) {
        registry.makeCounter(
            descriptor: Self.name("http_requests", unit: "total", help: "HTTP requests answered, by method and status."),
            labels: [("method", method), ("status", String(status))]
        ).increment()
    }

    private static func name(_ metric: String, unit: String = "", help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "parley", metricName: metric, unitName: unit, helpText: help)
    }

    /// The Prometheus text exposition.
    func render() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}
