import ArgumentParser
import AsyncHTTPClient
import Foundation
import ParleyAPI
import ParleyKit

/// `parley-load`: drives a running parley-server through its real HTTP and WebSocket paths and reports
/// throughput and send→receive latency (HdrHistogram percentiles).
@main
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parley-load",
        abstract: "Load-test a parley-server: N connected devices sending to each other, or many idle sockets.",
        subcommands: [Traffic.self, IdleSockets.self, HashLookups.self, CredentialFlood.self, BundleFetches.self],
        defaultSubcommand: Traffic.self)
}

/// Options every mode shares.
struct ServerOptions: ParsableArguments {
    @Option(help: "The server's base URL.")
    var server = "http://127.0.0.1:8080"

    @Option(help: "The server's process id, to report its resident memory (optional).")
    var serverPid: Int32?
}

extension LoadCommand {
    /// N devices, each with an open socket, sending to the next one over HTTP.
    struct Traffic: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Clients send to each other; report rates and latency.")

        @OptionGroup var options: ServerOptions

        @Option(help: "Connected devices (one account each).")
        var clients = 50

        @Option(help: "Target send rate, messages per second in all; 0 sends as fast as the server answers.")
        var rate = 0

        @Option(help: "Seconds of measured sending (after setup).")
        var duration = 10

        @Option(help: "Requests in flight per client when sending as fast as possible.")
        var concurrency = 4

        @Option(help: "Ciphertext bytes per message.")
        var payload = 160

        @Option(help: "Send over http (a PUT per message) or socket (request frames on each client's WebSocket).")
        var over = "http"

        @Flag(help: "Use JSON text frames on the sockets instead of binary (protobuf) frames.")
        var jsonFrames = false

        @Option(help: "Connect the receivers' sockets to this server instead (a second process on the same PostgreSQL; with --over http).")
        var receiveServer: String?

        func run() async throws {
            raiseOpenFileLimit()
            let http = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: .init(
                    connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: clients * concurrency)))
            let api = ParleyServerClient(baseURL: options.server, http: http)
            guard ["http", "socket"].contains(over) else { throw ValidationError("--over is http or socket") }
            if receiveServer != nil && over == "socket" {
                throw ValidationError("--receive-server needs --over http: a socket sends to the server it is connected to")
            }
            let run = TrafficRun(
                api: api, clients: clients, rate: rate, duration: duration, concurrency: concurrency, payload: payload,
                overSocket: over == "socket", binaryFrames: !jsonFrames, serverPid: options.serverPid,
                receiveBaseURL: receiveServer ?? options.server)
            let report = try await shuttingDown(http) { try await run.execute() }
            print(report.render(serverMemory: options.serverPid.flatMap(residentMemory(pid:))))
        }
    }

    /// Content-hash lookups against a bank the benchmark imported.
    struct HashLookups: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hash-lookups", abstract: "Content-hash lookups as fast as the server answers; report lookups per second.")

        @OptionGroup var options: ServerOptions
        @Option(help: "contains, prefix or batch.") var kind = "contains"
        @Option(help: "Concurrent workers (one account each).") var workers = 32
        @Option(help: "Seconds of measured lookups.") var duration = 10
        @Option(help: "Hashes the bank holds: SHA-256 of the indexes 0..<N as 8 little-endian bytes.") var bankSize = 10_000_000
        @Option(help: "Every Nth lookup asks for a hash the bank holds.") var knownEvery = 10
        @Option(help: "Hashes per batch request.") var batchSize = 100

        func run() async throws {
            guard let lookup = HashLookupRun.Kind(rawValue: kind) else { throw ValidationError("kind is contains, prefix or batch") }
            let http = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: .init(
                    connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: workers)))
            let run = HashLookupRun(
                api: ParleyServerClient(baseURL: options.server, http: http), kind: lookup, workers: workers,
                duration: duration, bankSize: bankSize, knownEvery: knownEvery, batchSize: batchSize)
            print(try await shuttingDown(http) { try await run.execute() })
        }
    }

    /// Prekey bundles over REST, then over gRPC.
    struct BundleFetches: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bundle-fetches",
            abstract: "GetPreKeyBundle as fast as the server answers, over REST and over gRPC; report both side by side.")

        @OptionGroup var options: ServerOptions
        @Option(help: "The server's gRPC port (parley-server --grpc-port).") var grpcPort: Int
        @Option(help: "Concurrent callers (one account each).") var workers = 32
        @Option(help: "Seconds of measured fetches per transport.") var duration = 10

        func run() async throws {
            let http = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: .init(
                    connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: workers)))
            let host = URL(string: options.server)?.host ?? "127.0.0.1"
            let run = BundleFetchRun(
                api: ParleyServerClient(baseURL: options.server, http: http), grpcHost: host, grpcPort: grpcPort,
                workers: workers, duration: duration, serverPid: options.serverPid)
            print(try await shuttingDown(http) { try await run.execute() })
        }
    }

    /// Wrong device credentials as fast as the server answers, while `/health` and a legitimate device are timed.
    struct CredentialFlood: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "credential-flood",
            abstract: "Send N requests with a wrong device credential; report /health's and a normal client's latency meanwhile.")

        @OptionGroup var options: ServerOptions
        @Option(help: "Wrong-credential requests in all.") var requests = 10_000
        @Option(help: "Wrong-credential requests in flight (workers).") var concurrency = 64
        @Option(help: "Offered wrong-credential requests per second in all; 0 sends as fast as the server answers.") var rate = 0

        func run() async throws {
            raiseOpenFileLimit()
            let http = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: .init(
                    connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency + 2)))
            let run = CredentialFloodRun(
                api: ParleyServerClient(baseURL: options.server, http: http), http: http, baseURL: options.server,
                requests: requests, concurrency: max(1, concurrency), rate: max(0, rate), serverPid: options.serverPid)
            print(try await shuttingDown(http) { try await run.execute() })
        }
    }

    /// Many idle authenticated sockets, to measure the server's memory per connection.
    struct IdleSockets: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Open N idle sockets; report the server's resident memory.")

        @OptionGroup var options: ServerOptions

        @Option(help: "Sockets to open (one device each).")
        var sockets = 10_000

        @Option(help: "Seconds to hold them open once all are connected.")
        var hold = 5

        @Option(help: "Messages each socket sends over itself (to the next socket's device) before they are held idle.")
        var sends = 0

        func run() async throws {
            raiseOpenFileLimit()
            let http = HTTPClient(eventLoopGroupProvider: .singleton)
            let api = ParleyServerClient(baseURL: options.server, http: http)
            let before = options.serverPid.flatMap(residentMemory(pid:))
            let idle = IdleSocketRun(api: api, baseURL: options.server, sockets: sockets, hold: hold, sends: sends) {
                options.serverPid.flatMap(residentMemory(pid:))
            }
            let result = try await shuttingDown(http) { try await idle.execute() }
            print("idle sockets: \(result.connected) of \(sockets) connected (setup \(String(format: "%.1f", result.setupSeconds)) s)")
            if let delivered = result.delivered {
                print("sent over the sockets: \(delivered.sent) accepted, \(delivered.received) received and acknowledged")
                if delivered.received < delivered.sent || delivered.sent < result.connected * sends {
                    print("warning: not every message was sent and received before the measurement")
                }
            }
            if let before, let after = result.serverMemory {
                print(
                    "server RSS: \(before / 1024) MiB before, \(after / 1024) MiB with all sockets open"
                        + " (\(String(format: "%.1f", Double(after - before) * 1024 / Double(max(result.connected, 1)))) bytes per socket)")
            }
        }
    }
}

/// Runs `body`, then shuts `http` down whether it succeeded or not.
func shuttingDown<T>(_ http: HTTPClient, _ body: () async throws -> T) async throws -> T {
    do {
        let result = try await body()
        try? await http.shutdown()
        return result
    } catch {
        try? await http.shutdown()
        throw error
    }
}

/// The server's resident set size in KiB, from /proc.
func residentMemory(pid: Int32) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return nil }
    return Int(line.split(separator: " ").dropFirst().first ?? "")
}

/// Lifts this process's open-file limit to its hard limit (sockets are files).
func raiseOpenFileLimit() {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}

/// A duration in seconds.
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// A duration in whole microseconds (what the latency histograms record).
func microseconds(_ duration: Duration) -> UInt64 {
    UInt64(max(0, duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000))
}

/// User plus system CPU seconds the process has used, from /proc/PID/stat.
func cpuSeconds(pid: Int32) -> Double? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return nil }
    // Fields after the command name: state is field 3, utime 14, stime 15.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}
