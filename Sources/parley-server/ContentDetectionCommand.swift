import ArgumentParser
import Foundation
import ParleyAPI
import ParleyOperatorClient

/// `parley-server dcd …`: the operator's side of duplicate content detection, against a running server.
struct ContentDetectionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dcd", abstract: "Manage the hash banks of a running server (operator).",
        subcommands: [Import.self, Status.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract:
                "Upload a file of hashes (one per line, or CSV with a hash column) into a bank; the server imports it in the background.")

        @OptionGroup var connection: OperatorConnection
        @Argument(help: "The file.") var file: String
        @Option(help: "blocked or seen.") var bank = "blocked"
        @Flag(help: "Wait until the job finishes, printing its progress.") var wait = false
        @Flag(help: "Print the job as JSON.") var json = false

        func run() async throws {
            guard FileManager.default.isReadableFile(atPath: file) else { throw ValidationError("cannot read \(file)") }
            let job: HashImportJob = try await connection.with { server in
                var job = try await server.importHashes(fileAt: URL(fileURLWithPath: file), bank: bank)
                print(Self.describe(job, json: json))
                while wait && ["queued", "running"].contains(job.state) {
                    try await Task.sleep(for: .seconds(1))
                    job = try await server.hashImportJob(job.id)
                    print(Self.describe(job, json: json))
                }
                return job
            }
            if job.state == "failed" { throw ExitCode.failure }
        }

        static func describe(_ job: HashImportJob, json: Bool) -> String {
            if json, let data = try? JSONEncoder().encode(job) { return String(decoding: data, as: UTF8.self) }
            return
                "job \(job.id) \(job.state): \(job.lines) lines, \(job.imported) imported, \(job.duplicates) duplicates, \(job.invalid) invalid"
                + (job.errors.isEmpty ? "" : "\n  " + job.errors.joined(separator: "\n  "))
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Show an import job's progress.")

        @OptionGroup var connection: OperatorConnection
        @Argument(help: "The job id.") var job: String
        @Flag(help: "Print the job as JSON.") var json = false

        func run() async throws {
            let record = try await connection.with { server in try await server.hashImportJob(job) }
            print(Import.describe(record, json: json))
        }
    }
}
