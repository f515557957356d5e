import AsyncHTTPClient
import Foundation
import Testing

/// The operator's command line against a real server started with `--registration token`: an invite made with
/// `parley-server invites create` lets `parley register --invite` in once; `parley-server accounts` lists, disables,
/// enables and deletes.
@Suite struct OperatorCommandTests {
    static let operatorToken = "operator-token-for-the-cli-test"

    /// Runs `parley-server ARGUMENTS` as the operator of `server`; status and stdout.
    static func operatorCommand(_ arguments: [String], server: ServerProcess) async throws -> (Int32, String) {
        guard let bin = ProcessInfo.processInfo.environment["PARLEY_BIN_DIR"] else { throw ServerProcessError.notConfigured }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: bin).appendingPathComponent("parley-server")
        process.arguments = arguments + ["--server", server.baseURL, "--operator-token", operatorToken]
        let run = try await ProcessRun.run(process)
        return (run.status, run.stdout)
    }

    @Test func invitesAdmitOnceAndOperatorsManageAccounts() async throws {
        let directory = NSTemporaryDirectory() + "parley-operator-\(UUID())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess(arguments: [
            "--data-directory", directory, "--registration", "token", "--operator-token", Self.operatorToken,
        ])
        defer { server.stop() }
        let parley = try CommandLineClientTests.Parley()

        let refused = try await parley.run("register", "alice", "--server", server.baseURL, "--account", "alice")
        #expect(refused.status != 0 && refused.stderr.contains("invite"), "\(refused.stderr)")

        let (created, token) = try await Self.operatorCommand(["invites", "create", "--uses", "1"], server: server)
        #expect(created == 0)
        let invite = token.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(invite.count >= 22)
        #expect(try await parley.run("register", "alice", "--server", server.baseURL, "--account", "alice", "--invite", invite).status == 0)
        let again = try await parley.run("register", "bob", "--server", server.baseURL, "--account", "bob", "--invite", invite)
        #expect(again.status != 0 && again.stderr.contains("used up"), "\(again.stderr)")

        let (listed, list) = try await Self.operatorCommand(["accounts", "list", "--json"], server: server)
        #expect(listed == 0)
        let accounts = try list.split(separator: "\n").map { try JSONDecoder().decode([String: AnyCodableValue].self, from: Data($0.utf8)) }
        #expect(accounts.count == 1)
        let aliceId = try #require(accounts.first?["accountId"]?.string)
        #expect(accounts.first?["username"]?.string == "alice")

        #expect(try await Self.operatorCommand(["accounts", "disable", aliceId], server: server).0 == 0)
        let blocked = try await parley.run("devices", "--account", "alice")
        #expect(blocked.status != 0 && blocked.stderr.contains("disabled"), "\(blocked.stderr)")
        #expect(try await Self.operatorCommand(["accounts", "enable", aliceId], server: server).0 == 0)
        #expect(try await parley.run("devices", "--account", "alice").status == 0)
        #expect(try await Self.operatorCommand(["accounts", "delete", aliceId], server: server).0 == 0)
        #expect(try await Self.operatorCommand(["accounts", "delete", aliceId], server: server).0 != 0, "already gone")
        #expect(try await Self.operatorCommand(["accounts", "list"], server: server).1.isEmpty)
    }

    /// A second server on the same SQLite data directory is refused with the first one's pid; both tools say their
    /// version; the server logs a start-up line naming its storage and address, and requests at debug level by route.
    @Test func oneServerPerDataDirectoryAndVersionsAndLogs() async throws {
        guard let bin = ProcessInfo.processInfo.environment["PARLEY_BIN_DIR"] else { throw ServerProcessError.notConfigured }
        let directory = NSTemporaryDirectory() + "parley-lock-\(UUID())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess(arguments: ["--data-directory", directory])
        defer { server.stop() }

        let second = ChildProcess()
        second.executableURL = URL(fileURLWithPath: bin).appendingPathComponent("parley-server")
        second.arguments = ["--data-directory", directory, "--port", "0"]
        let refused = try await ProcessRun.run(second)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("another parley-server (pid \(server.process.processIdentifier)) is using"), "\(refused.stderr)")

        // The server's help is how to run it: serve's flags, then the operator's commands.
        let help = ChildProcess()
        help.executableURL = URL(fileURLWithPath: bin).appendingPathComponent("parley-server")
        help.arguments = ["--help"]
        let helpRun = try await ProcessRun.run(help)
        #expect(
            helpRun.status == 0 && helpRun.stdout.contains("--data-directory") && helpRun.stdout.contains("--vapid-subject")
                && helpRun.stdout.contains("invites"), "\(helpRun.stdout)")

        for tool in ["parley", "parley-server"] {
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: bin).appendingPathComponent(tool)
            process.arguments = ["--version"]
            let run = try await ProcessRun.run(process)
            #expect(run.status == 0 && run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0", "\(tool): \(run.stdout)")
        }

        // At debug level: the start-up line and one line per request, by route, without the path's ids.
        let logged = NSTemporaryDirectory() + "parley-log-\(UUID())"
        defer { try? FileManager.default.removeItem(atPath: logged) }
        let verbose = ChildProcess()
        verbose.executableURL = URL(fileURLWithPath: bin).appendingPathComponent("parley-server")
        verbose.arguments = ["--data-directory", logged, "--port", "0", "--log-level", "debug"]
        let output = Pipe()
        let errors = Pipe()
        verbose.standardOutput = output
        verbose.standardError = errors
        try verbose.run()
        let stdout = LineReader(output.fileHandleForReading)
        let line = try #require(await stdout.next(timeout: 30))
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        for path in ["/v1/accounts/username/someone", "/health"] {
            _ = try? await http.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"), timeout: .seconds(10))
        }
        try await http.shutdown()
        verbose.terminate()
        await verbose.exited()
        let log = String(decoding: await errors.fileHandleForReading.readAll(), as: UTF8.self)
        #expect(log.contains("parley-server 0.1.0 started") && log.contains("storage=SQLite"), "\(log)")
        #expect(log.contains("GET /v1/accounts/username/{username} 401"), "\(log)")
        #expect(log.contains("GET /health 200"))
        #expect(!log.contains("someone"), "paths' names stay out of the log")
        #expect(log.contains("parley-server stopped"))
    }
}

/// A JSON value of the kinds `accounts list --json` prints.
enum AnyCodableValue: Decodable {
    case string(String)
    case number(Double)
    case bool(Bool)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    var string: String? { if case .string(let value) = self { return value } else { return nil } }
}
