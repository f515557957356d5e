import Foundation
import ParleyTestSupport

/// A real `parley-server` process (from `PARLEY_BIN_DIR`, which `make test` sets) on a free loopback port.
final class ServerProcess: @unchecked Sendable {
    let process = ChildProcess()
    let port: Int
    /// The gRPC port, when the arguments ask for a gRPC listener (`--grpc-port`).
    let grpcPort: Int?
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts the server with `arguments` on `port` (0: any free one) and waits for its "listening on" line.
    init(arguments: [String], environment: [String: String] = [:], port requested: Int = 0) async throws {
        guard let binDirectory = ProcessInfo.processInfo.environment["PARLEY_BIN_DIR"] else { throw ServerProcessError.notConfigured }
        process.executableURL = URL(fileURLWithPath: binDirectory).appendingPathComponent("parley-server")
        process.arguments = arguments + ["--port", "\(requested)", "--log-level", "warning"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let handle = output.fileHandleForReading
        // The server prints one line on stdout once it listens (logs go to stderr); read until it comes.
        let wantsGRPC = arguments.contains("--grpc-port")
        let reader = BlockingHandle(handle)
        // Read on a thread of its own: a blocking read must not hold one of the cooperative pool's threads.
        let found: (Int, Int?)? = await runBlocking {
            let handle = reader.value
            var text = ""
            func port(after marker: String) -> Int? {
                guard let range = text.range(of: marker), let end = text[range.upperBound...].firstIndex(of: "\n") else { return nil }
                return Int(text[range.upperBound..<end].split(separator: " ").first?.split(separator: ":").last ?? "")
            }
            while true {
                let data = handle.availableData
                if data.isEmpty { return nil }
                text += String(decoding: data, as: UTF8.self)
                if let http = port(after: "parley-server listening on ") {
                    if !wantsGRPC { return (http, nil) }
                    if let grpc = port(after: "parley-server gRPC listening on ") { return (http, grpc) }
                }
            }
        }
        guard let found else {
            process.terminate()
            throw ServerProcessError.didNotStart
        }
        (port, grpcPort) = found
    }

    /// SIGKILL: no shutdown, no flushing — what a crash looks like.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM: graceful shutdown.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { if process.isRunning { process.terminate() } }
}

enum ServerProcessError: Error, CustomStringConvertible {
    case notConfigured
    case didNotStart

    var description: String {
        switch self {
        case .notConfigured: return "PARLEY_BIN_DIR must name the build's bin directory (make test sets it)"
        case .didNotStart: return "parley-server did not report its port"
        }
    }
}
