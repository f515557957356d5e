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

    struct Connection: ParsableArguments {
        @Option(help: "The server's URL (environment: PARLEY_SERVER_URL).")
        var server = ProcessInfo.processInfo.environment["PARLEY_SERVER_URL"] ?? "http://127.0.0.1:8080"

        @Option(help: "The operator credential the server was started with (environment: PARLEY_OPERATOR_TOKEN).")
        var operatorToken: String?

        /// Runs `body` with an HTTP client and the authorization header.
        func with<T>(_ body: (HTTPClient, String) async throws -> T) async throws -> T {
            guard let operatorToken = operatorToken ?? ProcessInfo.processInfo.environment["PARLEY_OPERATOR_TOKEN"] else { throw ValidationError("pass --operator-token or set PARLEY_OPERATOR_TOKEN") }
            let http = HTTPClient(eventLoopGroupProvider: .singleton)
            do {
                let result = try await body(http, "Bearer \(operatorToken)")
                try await http.shutdown()
                return result
            } catch {
                try? await http.shutdown()
                throw error
            }
        }

        /// The job's record from the server.
        func job(_ id: String, http: HTTPClient, authorization: String) async throws -> HashImportJob {
            var request = HTTPClientRequest(url: server + ContentHashRoutes.importJob(id))
            request.headers.add(name: "Authorization", value: authorization)
            return try await Self.decode(try await http.execute(request, timeout: .seconds(30)))
        }

        static func decode<T: Decodable>(_ response: HTTPClientResponse) async throws -> T {
            let body = Data((try await response.body.collect(upTo: 1 << 20)).readableBytesView)
            guard (200..<300).contains(response.status.code) else {
                let message = (try? JSONDecoder().decode(APIErrorBody.self, from: body)).map { "\($0.code): \($0.message)" }
                throw ValidationError("server answered \(response.status.code)\(message.map { " (\($0))" } ?? "")")
            }
            return try JSONDecoder().decode(T.self, from: body)
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Upload a file of hashes (one per line, or CSV with a hash column) into a bank; the server imports it in the background.")

        @OptionGroup var connection: Connection
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
                var job: HashImportJob = try await Connection.decode(try await http.execute(request, timeout: .minutes(60)))
                print(Self.describe(job, json: json))
                while wait && ["queued", "running"].contains(job.state) {
                    try await Task.sleep(for: .seconds(1))
                    job = try await connection.job(job.id, http: http, authorization: authorization)
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

        @OptionGroup var connection: Connection
        @Argument(help: "The job id.") var job: String
        @Flag(help: "Print the job as JSON.") var json = false

        func run() async throws {
            let record = try await connection.with { http, authorization in
                try await connection.job(job, http: http, authorization: authorization)
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
