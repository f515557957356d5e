import AsyncHTTPClient
import Foundation
import ParleyAPI
import ParleyTestSupport
import Testing

/// `parley-server` started with the environment variables docs/SERVER.md documents, each set as an operator would set
/// it: the server starts and serves. Two boolean ones, `PARLEY_PUSH_ALLOW_PRIVATE_HOSTS=1` and `PARLEY_DCD_STRICT=1`,
/// stopped it from starting (ArgumentParser refuses a flag whose default is true).
@Suite struct ServerEnvironmentTests {
    static let token = "environment-operator-token"

    @Test func everyDocumentedVariableIsAcceptedAtStartUp() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-env-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = [
            "PARLEY_PUSH_ALLOW_PRIVATE_HOSTS": "1", "PARLEY_DCD_STRICT": "1", "PARLEY_PUSH_WINDOW_SECONDS": "10",
            "PARLEY_RATE_LIMIT_SCALE": "2", "PARLEY_REGISTRATION": "open", "PARLEY_GROUP_COMMIT": "on",
            "PARLEY_SQLITE_DURABILITY": "process", "PARLEY_MESSAGE_TTL_DAYS": "7", "PARLEY_DCD_SEEN_TTL_DAYS": "30",
            "PARLEY_ATTACHMENT_MAX_BYTES": "1048576", "PARLEY_BACKUP_MAX_FAILURES": "5", "PARLEY_KEEPALIVE_SECONDS": "20",
            "PARLEY_MAX_CONNECTIONS": "500", "PARLEY_MAX_CONNECTIONS_PER_ADDRESS": "50", "PARLEY_READ_TIMEOUT_SECONDS": "60",
            "PARLEY_REQUEST_HEAD_TIMEOUT_SECONDS": "10", "PARLEY_TRUSTED_PROXIES": "127.0.0.2",
            "PARLEY_OPERATOR_TOKEN": Self.token, "PARLEY_VAPID_SUBJECT": "mailto:ops@example.org", "PARLEY_HOST": "127.0.0.1",
        ]
        let server = try await ServerProcess(arguments: ["--data-directory", directory], environment: environment)
        // Its own connections, closed before the server stops: an idle keep-alive connection would hold up the graceful
        // shutdown, and the stop waits for the process off the test pool's threads.
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let health = try? await http.execute(HTTPClientRequest(url: server.baseURL + APIRoutes.health), timeout: .seconds(10))
        // The operator token came from the environment: the operator API answers it.
        var accounts = HTTPClientRequest(url: server.baseURL + OperatorRoutes.accounts)
        accounts.headers.add(name: "Authorization", value: "Bearer \(Self.token)")
        let operatorAnswer = try? await http.execute(accounts, timeout: .seconds(10))
        try await http.shutdown()
        await runBlocking { server.stop() }
        #expect(health?.status == .ok)
        #expect(operatorAnswer?.status == .ok)
    }
}
