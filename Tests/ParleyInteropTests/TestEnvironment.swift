import Foundation

/// Where the interop tests find what they run: the shared reference peer, our built executables, Python.
enum TestEnvironment {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `../shared` beside the repository, or `PARLEY_SHARED_DIR`.
    static var sharedDirectory: URL {
        if let path = ProcessInfo.processInfo.environment["PARLEY_SHARED_DIR"] { return URL(fileURLWithPath: path) }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    }

    /// The build products folder: `PARLEY_BIN_DIR`, else `.build/debug`.
    static var binDirectory: URL {
        if let path = ProcessInfo.processInfo.environment["PARLEY_BIN_DIR"] { return URL(fileURLWithPath: path) }
        return packageRoot.appendingPathComponent(".build/debug")
    }

    /// The Python with kyber-py and xeddsa (`make test` makes `.build/python`), or `PARLEY_PYTHON`.
    static var python: String {
        ProcessInfo.processInfo.environment["PARLEY_PYTHON"] ?? packageRoot.appendingPathComponent(".build/python/bin/python3").path
    }

    static var parleyPeer: String { binDirectory.appendingPathComponent("parley-interop-peer").path }

    /// Runs a program to completion and returns its exit status and standard output (standard error is appended).
    /// The wait happens on a thread of its own: a driver run lasts a minute, and holding one of the cooperative pool's
    /// two threads that long would stall the in-process servers of the tests running beside it.
    static func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try runToCompletion(executable, arguments) }) }
        }
    }

    private static func runToCompletion(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
