import Foundation
import Testing

/// `parley web` in a real browser: `Scripts/interop/web_client_test.py` drives Debian's Chromium through Playwright as
/// three people, each on their own `parley web` process, against a real parley-server it stops and starts again — the
/// flows people use, the page's security, axe-core's accessibility checks on every screen, and screenshots of each.
@Suite struct WebClientTests {
    @Test(.timeLimit(.minutes(10))) func threePeopleChatInTheirBrowsers() async throws {
        guard let bin = ProcessInfo.processInfo.environment["PARLEY_BIN_DIR"] else { throw ServerProcessError.notConfigured }
        let screenshots =
            ProcessInfo.processInfo.environment["PARLEY_WEB_SCREENSHOTS"]
            ?? GRPCInteropTests.packageRoot.appendingPathComponent(".build/web-screenshots").path
        let python = ChildProcess()
        python.executableURL = URL(
            fileURLWithPath: ProcessInfo.processInfo.environment["PARLEY_PYTHON"]
                ?? GRPCInteropTests.packageRoot.appendingPathComponent(".build/python/bin/python3").path)
        python.arguments = [GRPCInteropTests.packageRoot.appendingPathComponent("Scripts/interop/web_client_test.py").path]
        python.environment = ProcessInfo.processInfo.environment.merging(
            ["PARLEY_BIN_DIR": bin, "PARLEY_WEB_SCREENSHOTS": screenshots]) { $1 }
        let output = Pipe()
        python.standardOutput = output
        python.standardError = output
        try python.run()
        defer { if python.isRunning { python.terminate() } }
        let text = String(decoding: await output.fileHandleForReading.readAll(), as: UTF8.self)
        await python.exited()
        #expect(python.terminationStatus == 0, "\(text)")
        #expect(text.contains("WEB OK"), "\(text)")
    }
}
