import Foundation
import Testing

/// No plaintext or partial file outlives the `parley` process that made it: downloads and uploads interrupted with
/// SIGINT or SIGKILL leave their files only in the process's private staging directory, and the next command that
/// opens the account removes them.
@Suite struct InterruptedTransferTests {
    typealias Parley = CommandLineClientTests.Parley

    /// Files under `directory` whose names a transfer in the making gives them.
    static func transferFiles(under directory: String) -> [String] {
        var found: [String] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            let path = directory + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                found += transferFiles(under: path)
            } else if ["download-", "plaintext-", "upload-", "long-text-"].contains(where: name.hasPrefix) {
                found.append(path)
            }
        }
        return found
    }

    /// Starts `arguments`, waits until a file named `prefix…` appears under `staging`, then sends `signal`. Returns
    /// whether the file was seen before the process ended by itself.
    static func interrupt(
        _ parley: Parley, _ arguments: [String], when prefix: String, appearsUnder staging: String,
        with signal: Int32
    ) async throws -> (seen: Bool, output: String) {
        let process = parley.process(arguments)
        let errors = Pipe()
        process.standardOutput = errors
        process.standardError = errors
        try process.run()
        let pid = process.processIdentifier
        // The process runs in 1 ms slices, stopped while its files are looked at: a transfer of a few hundred
        // milliseconds is caught however loaded the machine is. (A blocking loop, on purpose: a task could be
        // scheduled too late under the parallel test run.)
        var seen = false
        while process.isRunning {
            kill(pid, SIGSTOP)
            if transferFiles(under: staging).contains(where: { ($0 as NSString).lastPathComponent.hasPrefix(prefix) }) {
                kill(pid, signal)
                kill(pid, SIGCONT)
                seen = true
                break
            }
            kill(pid, SIGCONT)
            usleep(1000)
        }
        await process.exited()
        return (seen, String(decoding: await errors.fileHandleForReading.readAll(), as: UTF8.self))
    }

    @Test func interruptedDownloadsAndUploadsLeaveNothingBehind() async throws {
        let directory = NSTemporaryDirectory() + "parley-interrupt-\(UUID())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await CommandLineScenarioTests.startServer(directory + "/server")
        defer { server.stop() }
        let parley = try Parley()
        #expect(try await parley.run("register", "nina", "--server", server.baseURL, "--account", "nina").status == 0)
        #expect(try await parley.run("register", "omar", "--server", server.baseURL, "--account", "omar").status == 0)
        let nina = parley.home + "/accounts/nina"
        let omar = parley.home + "/accounts/omar"

        // 24 MiB: long enough to be caught in the middle.
        let source = directory + "/big.bin"
        let random = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/urandom"))
        #expect(FileManager.default.createFile(atPath: source, contents: try random.read(upToCount: 24 << 20)))
        #expect(try await parley.run("send", "omar", "--attach", source, "--account", "nina").status == 0)
        #expect(try await parley.run("receive", "--account", "omar").status == 0)
        let history = try await parley.run("history", "nina", "--account", "omar", "--json").stdout
        let message = try #require(CommandLineScenarioTests.json(String(history.prefix { $0 != "\n" }))["id"] as? Int)

        for signal in [SIGKILL, SIGINT] {
            let (caught, output) = try await Self.interrupt(
                parley, ["download", "\(message)", "--to", directory + "/out", "--account", "omar"],
                when: "download-", appearsUnder: omar, with: signal)
            #expect(caught, "the download was interrupted (signal \(signal)): \(output)")
            if caught, signal == SIGKILL { #expect(!Self.transferFiles(under: omar).isEmpty, "a killed process cannot clean up itself") }
            let staging = omar + "/attachments/staging"
            let mode = try FileManager.default.attributesOfItem(atPath: staging)[.posixPermissions] as? Int
            #expect(mode == 0o700, "the staging directory is private")
            #expect(try await parley.run("conversations", "--account", "omar").status == 0)
            #expect(Self.transferFiles(under: omar).isEmpty, "the next command removed what was left: \(Self.transferFiles(under: omar))")
            #expect(try FileManager.default.contentsOfDirectory(atPath: staging).isEmpty)
        }

        let (caught, output) = try await Self.interrupt(
            parley, ["send", "omar", "again", "--attach", source, "--account", "nina"],
            when: "upload-", appearsUnder: nina, with: SIGKILL)
        #expect(caught, "the upload was interrupted while it encrypted or sent: \(output)")
        #expect(try await parley.run("conversations", "--account", "nina").status == 0)
        #expect(Self.transferFiles(under: nina).isEmpty, "\(Self.transferFiles(under: nina))")

        // A completed download leaves exactly the file asked for.
        #expect(try await parley.run("download", "\(message)", "--to", directory + "/out", "--account", "omar").status == 0)
        #expect(FileManager.default.fileExists(atPath: directory + "/out/big.bin"))
        #expect(Self.transferFiles(under: omar).isEmpty)
    }
}
