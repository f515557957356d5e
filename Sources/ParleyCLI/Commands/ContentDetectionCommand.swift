import ArgumentParser
import Foundation
import ParleyAPI
import ParleyKit

struct ContentDetectionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dcd", abstract: "Duplicate content detection: check files against the server's hash banks, verify the setup.",
        discussion: "PARLEY_DCD selects prefix (default: the server never sees a whole hash), full or off.",
        subcommands: [Check.self, Verify.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "check", abstract: "Hash files and look them up.")

        @OptionGroup var options: GlobalOptions
        @Argument(help: "Files to check.") var files: [String]

        func run() async throws {
            struct Checked: Encodable { let file: String; let sha256: String; let verdict: HashVerdict }
            let results = try await AccountContext.with(options) { client -> [Checked] in
                let hashes = try files.map { try GlobalSignatureService.hash(ofFileAt: URL(fileURLWithPath: $0)) }
                let verdicts = await client.contentDetection.batchContains(hashes)
                return zip(files, zip(hashes, verdicts)).map { Checked(file: $0, sha256: $1.0, verdict: $1.1) }
            }
            let output = Output(json: options.json)
            for result in results {
                let text = result.verdict.blocked ? "BLOCKED (\(result.verdict.banks.joined(separator: ", ")))"
                    : result.verdict.found ? "seen before (\(result.verdict.banks.joined(separator: ", ")))"
                    : result.verdict.source == .failOpen ? "unknown (the check failed; allowed)" : "not found"
                output.emit(result, text: "\(result.file): \(text)  sha256 \(result.sha256)")
            }
            if results.contains(where: \.verdict.blocked) { throw ParleyExit.blocked }
        }
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify", abstract: "Check the configuration and that the server answers hash lookups; print a report.")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            struct Step: Encodable { let check: String; let ok: Bool; let detail: String }
            let steps = try await AccountContext.with(options) { client -> [Step] in
                var steps: [Step] = []
                let configuration = client.contentDetection.configuration
                steps.append(Step(check: "configuration", ok: true, detail: configuration.enabled
                    ? "enabled, \(configuration.mode.rawValue) lookups, \(configuration.maxAttempts) attempts, breaker at \(configuration.failureThreshold) failures for \(configuration.cooldown), cache \(configuration.cacheCapacity) for \(configuration.cacheLifetime)"
                    : "disabled (PARLEY_DCD=off): nothing is checked"))
                steps.append(Step(check: "server", ok: true, detail: client.api.baseURL))
                do {
                    let credentials = try client.credentials()
                    steps.append(Step(check: "account", ok: true, detail: "device \(credentials.deviceId) of \(credentials.accountId)"))
                    let probe = ContentHashFormat.hex((0..<32).map { _ in UInt8.random(in: 0...255) })
                    let started = ContinuousClock.now
                    let answer = try await client.api.hashPrefix(String(probe.prefix(5)), as: credentials)
                    steps.append(Step(check: "prefix lookup", ok: true,
                                      detail: "\(answer.suffixes.count) suffixes in \(ContinuousClock.now - started)"))
                    let full = try await client.api.checkHash(probe, as: credentials)
                    steps.append(Step(check: "full-hash lookup", ok: !full.found, detail: "random hash found: \(full.found)"))
                } catch {
                    steps.append(Step(check: "lookups", ok: false, detail: "\(error)"))
                }
                let verdict = await client.contentDetection.contains(String(repeating: "0", count: 64))
                steps.append(Step(check: "service", ok: verdict.source != .failOpen || !configuration.enabled,
                                  detail: "answered from \(verdict.source.rawValue); circuit \(client.contentDetection.isCircuitOpen ? "open" : "closed")"))
                return steps
            }
            let output = Output(json: options.json)
            for step in steps { output.emit(step, text: "\(step.ok ? "PASS" : "FAIL")  \(step.check): \(step.detail)") }
            if steps.contains(where: { !$0.ok }) { throw ParleyExit.server }
        }
    }
}
