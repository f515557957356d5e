import AsyncHTTPClient
import Crypto
import Foundation
import ParleyAPI
import ParleyOperatorClient
import Testing

@testable import ParleyKit

/// A million-hash import through `parley-server dcd import` against a real server process, killed with SIGKILL
/// mid-import: after a restart the job resumes at its last committed chunk and every count comes out exact; a second
/// run of the same file adds nothing.
@Suite struct HashImportTests {
    static let token = "integration-operator-token"

    static func operatorCommand(_ arguments: [String], server: ServerProcess) async throws -> HashImportJob {
        guard let bin = ProcessInfo.processInfo.environment["PARLEY_BIN_DIR"] else { throw ServerProcessError.notConfigured }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: bin).appendingPathComponent("parley-server")
        process.arguments = ["dcd"] + arguments + ["--server", server.baseURL, "--json"]
        process.environment = ProcessInfo.processInfo.environment.merging(["PARLEY_OPERATOR_TOKEN": token]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = await output.fileHandleForReading.readAll()
        await process.exited()
        let last = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        return try JSONDecoder().decode(HashImportJob.self, from: Data(last.utf8))
    }

    @Test func aMillionHashesImportExactlyOnceAcrossAKillAndASecondRunAddsNothing() async throws {
        let directory = NSTemporaryDirectory() + "parley-import-\(UUID())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/hashes.txt"
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        var chunk = ""
        for index in 0..<1_000_000 {
            withUnsafeBytes(of: UInt64(index).littleEndian) { chunk += ContentHashFormat.hex(Array(SHA256.hash(data: $0))) + "\n" }
            if index % 50_000 == 49_999 {
                try handle.write(contentsOf: Data(chunk.utf8))
                chunk = ""
            }
        }
        try handle.close()

        let arguments = ["--data-directory", directory + "/server"]
        var server = try await ServerProcess(arguments: arguments, environment: ["PARLEY_OPERATOR_TOKEN": Self.token])
        let started = ContinuousClock.now
        let queued = try await Self.operatorCommand(["import", file], server: server)
        #expect(queued.state == "queued" && queued.fileBytes == 65_000_000)

        // Let part of it commit (the first chunks), then kill the server the hard way. Polled over HTTP directly (a
        // command per poll can take longer than the whole import on a loaded machine); the command's `status` is
        // checked after the restart.
        let operatorAPI = OperatorClient(baseURL: server.baseURL, http: HTTPClient.shared, token: Self.token)
        var seen = queued
        while seen.lines == 0 && seen.state != "completed" {
            try await Task.sleep(for: .milliseconds(10))
            seen = try await operatorAPI.hashImportJob(queued.id)
        }
        #expect(seen.state == "running", "the import was still running when the server was killed")
        server.kill()
        let port = server.port
        server = try await ServerProcess(arguments: arguments, environment: ["PARLEY_OPERATOR_TOKEN": Self.token], port: port)
        defer { server.stop() }
        var job = seen
        while job.state == "running" || job.state == "queued" {
            try await Task.sleep(for: .milliseconds(500))
            job = try await Self.operatorCommand(["status", queued.id], server: server)
        }
        let firstRun = ContinuousClock.now - started
        #expect(job.state == "completed")
        #expect(job.lines == 1_000_000 && job.imported == 1_000_000 && job.duplicates == 0 && job.invalid == 0)

        let again = ContinuousClock.now
        let second = try await Self.operatorCommand(["import", file, "--wait"], server: server)
        #expect(second.state == "completed" && second.imported == 0 && second.duplicates == 1_000_000)
        print("1,000,000-hash import: first run (with a kill and restart) \(firstRun), second run \(ContinuousClock.now - again)")
    }
}
