import AsyncHTTPClient
import Foundation
import NIOSSL
import ParleyAPI

/// `Scripts/interop/push_providers.py` running on a loopback TLS port: APNs, FCM (with Google's OAuth endpoint) and
/// a Web Push service, each checking what the server sends with an independent implementation (PyJWT, py-vapid,
/// http-ece) and recording it.
final class PushProviders: @unchecked Sendable {
    let process = ChildProcess()
    let directory: URL
    let port: Int
    let http: HTTPClient
    /// Web Push subscriptions the receiver can decrypt, by id (sub0…sub5, gone0, throttled-once0).
    let subscriptions: [String: PushTarget]

    /// One request as the provider saw it.
    struct Record: Decodable, Sendable {
        let provider: String
        let target: String?
        let status: Int
        let httpVersion: String?
        let headers: [String: String]
        let plaintext: String?
        let rawBody: String
        let vapidKey: String?
        let error: String?

        /// Everything the provider learned, as text (for checking what did not leave the server).
        var everything: String {
            ([provider, target ?? "", plaintext ?? "", String(decoding: Data(base64Encoded: rawBody) ?? Data(), as: UTF8.self)]
                + headers.map { "\($0.key): \($0.value)" }).joined(separator: "\n")
        }
    }

    init() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-push-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        process.executableURL = URL(
            fileURLWithPath: ProcessInfo.processInfo.environment["PARLEY_PYTHON"]
                ?? GRPCInteropTests.packageRoot.appendingPathComponent(".build/python/bin/python3").path)
        process.arguments = [GRPCInteropTests.packageRoot.appendingPathComponent("Scripts/interop/push_providers.py").path, directory.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = Pipe()
        try process.run()
        let lines = LineReader(output.fileHandleForReading)
        guard let ready = await lines.next(timeout: 30), ready.hasPrefix("READY "), let port = Int(ready.dropFirst(6)) else {
            process.terminate()
            throw PushProvidersError.didNotStart
        }
        self.port = port
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(directory.appendingPathComponent("ca.pem").path)
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
        struct Subscription: Decodable {
            let id: String
            let endpoint: String
            let p256dh: String
            let auth: String
        }
        let list = try JSONDecoder().decode(
            [Subscription].self, from: Data(contentsOf: directory.appendingPathComponent("webpush-subscriptions.json")))
        subscriptions = Dictionary(
            uniqueKeysWithValues: list.map { ($0.id, .webPush(endpoint: $0.endpoint, p256dh: $0.p256dh, auth: $0.auth)) })
    }

    /// `parley-server` flags that send APNs and FCM pushes here and trust this listener's certificate.
    var serverArguments: [String] {
        get throws {
            struct APNs: Decodable {
                let keyId: String
                let teamId: String
                let url: String
            }
            let apns = try JSONDecoder().decode(APNs.self, from: Data(contentsOf: directory.appendingPathComponent("apns.json")))
            return [
                "--apns-key-file", directory.appendingPathComponent("apns-key.p8").path, "--apns-key-id", apns.keyId,
                "--apns-team-id", apns.teamId, "--apns-url", apns.url,
                "--fcm-service-account", directory.appendingPathComponent("fcm-service-account.json").path,
                "--fcm-url", "https://127.0.0.1:\(port)", "--push-ca-file", directory.appendingPathComponent("ca.pem").path,
                "--push-allow-private-hosts",
            ]
        }
    }

    /// The topic the APNs emulator accepts.
    static let topic = "org.parley.test"

    /// Every request received so far for `provider` (all when `nil`).
    func records(_ provider: String? = nil) async throws -> [Record] {
        let url = "https://127.0.0.1:\(port)/_received" + (provider.map { "?provider=\($0)" } ?? "")
        let response = try await http.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
        return try JSONDecoder().decode([Record].self, from: Data((try await response.body.collect(upTo: 64 << 20)).readableBytesView))
    }

    /// Waits up to `seconds` for the records to satisfy `condition`; returns the last ones read.
    func waitFor(seconds: Double = 15, _ condition: ([Record]) -> Bool) async throws -> [Record] {
        let deadline = Date().addingTimeInterval(seconds)
        var latest = try await records()
        while !condition(latest), Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
            latest = try await records()
        }
        return latest
    }

    /// Stops the providers: SIGTERM, then SIGKILL when open connections keep hypercorn waiting past two seconds.
    func stop() async {
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning, Date() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        try? FileManager.default.removeItem(at: directory)
    }

    /// The HTTP client's connections close after the last use (a test that failed early never called ``stop()``).
    deinit {
        if process.isRunning { process.terminate() }
        http.shutdown { _ in }
    }
}

enum PushProvidersError: Error {
    /// The script printed no READY line (is `.build/python` set up? `Scripts/install-deps.sh --test`).
    case didNotStart
}
