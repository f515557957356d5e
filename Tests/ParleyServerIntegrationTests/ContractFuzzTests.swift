import AsyncHTTPClient
import Foundation
import ParleyAPI
import ParleyProtocol
import Testing

@testable import ParleyKit

/// The REST contract judged by an outside tool: schemathesis generates requests from docs/openapi.json — valid ones,
/// invalid ones, undeclared methods and stateful sequences — and throws them at a real parley-server process with real
/// device and operator credentials, every check on (no 5xx, statuses, content types, headers and bodies as documented,
/// valid data accepted, invalid data refused, 405 with `Allow` for undeclared methods). Settings:
/// Scripts/interop/schemathesis.toml.
@Suite struct ContractFuzzTests {
    static let operatorToken = "contract-fuzz-operator-token"
    /// Examples per operation and phase: bounded for `make test` (docs/TESTING.md has a longer run).
    static let examples = ProcessInfo.processInfo.environment["PARLEY_SCHEMATHESIS_EXAMPLES"] ?? "15"
    /// The generator's seed: fixed, so a run in `make test` is repeatable; `PARLEY_SCHEMATHESIS_SEED` picks another.
    static let seed = ProcessInfo.processInfo.environment["PARLEY_SCHEMATHESIS_SEED"] ?? "20261126"

    /// A registered device's HTTP Basic credential (base64 of `account.device:password`).
    static func register(_ username: String, at server: ServerProcess) async throws -> String {
        let password = DeviceCredentials.makePassword()
        let response = try await ParleyServerClient(baseURL: server.baseURL, http: HTTPClient.shared).register(
            RegisterAccountRequest(
                username: username, identityKey: IdentityKeyPair.generate().publicKey.serialize().base64EncodedString(),
                registrationId: 7, password: password, deviceName: nil))
        return Data("\(response.accountId).\(response.deviceId):\(password)".utf8).base64EncodedString()
    }

    @Test func schemathesisFindsNoServerErrorAndNoContractViolation() async throws {
        guard let python = ProcessInfo.processInfo.environment["PARLEY_PYTHON"] else { throw ServerProcessError.notConfigured }
        let directory = NSTemporaryDirectory() + "parley-contract-\(UUID())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess(
            arguments: ["--data-directory", directory],
            environment: ["PARLEY_OPERATOR_TOKEN": Self.operatorToken])
        defer { server.stop() }
        let device = try await Self.register("contract", at: server)
        let spare = try await Self.register("contract-spare", at: server)

        let root = GRPCInteropTests.packageRoot
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("schemathesis")
        // Its cache (`.schemathesis/`) goes with the server's data, not into the source tree.
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.arguments = [
            "--config-file", root.appendingPathComponent("Scripts/interop/schemathesis.toml").path,
            "run", root.appendingPathComponent("docs/openapi.json").path, "--url", server.baseURL,
            "--max-examples", Self.examples, "--seed", Self.seed, "--no-color",
        ]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "PARLEY_DEVICE_AUTH": device, "PARLEY_SPARE_DEVICE_AUTH": spare, "PARLEY_OPERATOR_TOKEN": Self.operatorToken,
            "SCHEMATHESIS_HOOKS": "schemathesis_hooks", "PYTHONPATH": root.appendingPathComponent("Scripts/interop").path,
        ]) { $1 }
        let run = try await ProcessRun.run(process)
        let summary = run.stdout.components(separatedBy: "\n").drop { !$0.contains("SUMMARY") }.joined(separator: "\n")
        #expect(run.status == 0, "schemathesis exited \(run.status):\n\(run.stdout.suffix(12_000))\n\(run.stderr.suffix(2_000))")
        #expect(summary.contains("Tested:"), "no summary:\n\(run.stdout.suffix(4_000))\n\(run.stderr.suffix(2_000))")
        print(summary.isEmpty ? run.stdout.suffix(4_000) : summary)
    }
}
