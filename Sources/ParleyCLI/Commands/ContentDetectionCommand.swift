import ArgumentParser
import Foundation
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
            struct Checked: Encodable {
                let file: String
                let sha256: String
                let verdict: HashVerdict
            }
            let results = try await AccountContext.with(options) { client -> [Checked] in
                let checks = try await client.checkContent(ofFiles: files.map { URL(fileURLWithPath: $0) })
                return zip(files, checks).map { Checked(file: $0, sha256: $1.sha256, verdict: $1.verdict) }
            }
            let output = Output(json: options.json)
            for result in results {
                let text =
                    result.verdict.blocked
                    ? "BLOCKED (\(result.verdict.banks.joined(separator: ", ")))"
                    : result.verdict.found
                        ? "seen before (\(result.verdict.banks.joined(separator: ", ")))"
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
            let steps = try await AccountContext.with(options) { client in await client.verifyContentDetection() }
            let output = Output(json: options.json)
            for step in steps { output.emit(step, text: "\(step.ok ? "PASS" : "FAIL")  \(step.check): \(step.detail)") }
            if steps.contains(where: { !$0.ok }) { throw ParleyExit.server }
        }
    }
}
