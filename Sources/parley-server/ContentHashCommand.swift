import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import ParleyAPI

/// `parley-server dcd …`: the operator's side of duplicate content detection, against a running server.
struct ContentHashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dcd", abstract: "Manage the hash banks of a running server (operator).",
        subcommands: [Import.self, Status.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Upload a file of hashes (one per line, or CSV with a hash column) into a bank; the server imports it in the background.")

        @OptionGroup var connection: OperatorConnection
        @Argument(help: "The file.") var file: String
        @Option(help: "blocked or seen.") var bank = "blocked"
        @Flag(help: "Wait until the job finishes, printing its progress.") var wait = false
        @Flag(help: "Print the job as JSON.") var json = false

        func run() async throws {
            let job: HashImportJob = try await connection.with { http, authorization in
                let size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0
                var request = HTTPClientRequest(url: connection.server + ContentHashRoutes.imports(bank: bank))
                request.method = .POST
                request.headers.add(name: "Authorization", value: authorization)
                request.headers.add(name: "Content-Type", value: "text/plain")
                request.body = .stream(FileByteChunks(path: file), length: .known(size))
                var job: HashImportJob = try await OperatorConnection.decode(try await http.execute(request, timeout: .minutes(60)))
                print(Self.describe(job, json: json))
                while wait && ["queued", "running"].contains(job.state) {
                    try await Task.sleep(for: .seconds(1))
                    job = try await connection.call(.GET, ContentHashRoutes.importJob(job.id), body: Optional<String>.none, http: http,
                                                    authorization: authorization)
                    print(Self.describe(job, json: json))
                }
                return job
            }
            if job.state == "failed" { throw ExitCode.failure }
        }

        static func describe(_ job: HashImportJob, json: Bool) -> String {
            if json, let data = try? JSONEncoder().encode(job) { return String(decoding: data, as: UTF8.self) }
            return "job \(job.id) \(job.state): \(job.lines) lines, \(job.imported) imported, \(job.duplicates) duplicates, \(job.invalid) invalid"
                + (job.errors.isEmpty ? "" : "\n  " + job.errors.joined(separator: "\n  "))
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Show an import job's progress.")

        @OptionGroup var connection: OperatorConnection
        @Argument(help: "The job id.") var job: String
        @Flag(help: "Print the job as JSON.") var json = false

        func run() async throws {
            let record: HashImportJob = try await connection.with { http, authorization in
                try await connection.call(.GET, ContentHashRoutes.importJob(job), body: Optional<String>.none, http: http,
                                          authorization: authorization)
            }
            print(Import.describe(record, json: json))
        }
    }
}

/// A file as 256 KiB buffers, for a streamed upload.
struct FileByteChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let path: String

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle?

        mutating func next() async throws -> ByteBuffer? {
            guard let handle, let data = try handle.read(upToCount: 256 * 1024), !data.isEmpty else {
                try? handle?.close()
                return nil
            }
            return ByteBuffer(bytes: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(handle: FileHandle(forReadingAtPath: path)) }
}
