import Foundation
import Testing

/// Runs ../shared/interop's driver: Parley against Signal's C library (libsignal-protocol-c) in both
/// role assignments, and Parley against itself for the version-4 (PQXDH) checks the C library lacks.
@Suite(.serialized) struct InteropDriverTests {
    struct Summary {
        let passed: Int, failed: Int, skipped: Int
        let skippedNames: [String]
        let failures: [String]

        init(_ output: String) {
            let lines = output.split(separator: "\n").map(String.init)
            var counts = [0, 0, 0]
            if let last = lines.last(where: { $0.contains(" passed, ") }) {
                let numbers = last.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
                for (index, number) in numbers.prefix(3).enumerated() { counts[index] = number }
            }
            (passed, failed, skipped) = (counts[0], counts[1], counts[2])
            skippedNames = lines.filter { $0.hasPrefix("SKIP") }
            failures = lines.filter { $0.hasPrefix("FAIL") }
        }
    }

    func runDriver(a: String, b: String) async throws -> Summary {
        let selftest = TestEnvironment.sharedDirectory.appendingPathComponent("interop/selftest.sh").path
        let (status, output) = try await TestEnvironment.run("/bin/bash", [selftest, "--a", a, "--b", b])
        let summary = Summary(output)
        #expect(status == 0, "driver failed:\n\(summary.failures.joined(separator: "\n"))\n\(output.suffix(2000))")
        return summary
    }

    @Test func parleyInteroperatesWithSignalsCLibraryInBothRoles() async throws {
        let reference = TestEnvironment.sharedDirectory.appendingPathComponent("interop/peer").path
        let summary = try await runDriver(a: reference, b: TestEnvironment.parleyPeer)
        #expect(summary.failed == 0)
        #expect(summary.passed >= 38, "expected every version-3 check in both role assignments, got \(summary.passed)")
        // The C library speaks version 3 only: the version-4 and SPQR checks are its skips, none of ours.
        #expect(summary.skippedNames.allSatisfy { $0.contains("pqxdh_") || $0.contains("spqr_") })
    }

    @Test func parleyPassesEveryVersion4AndSPQRCheckAgainstItself() async throws {
        let summary = try await runDriver(a: TestEnvironment.parleyPeer, b: TestEnvironment.parleyPeer)
        #expect(summary.failed == 0)
        #expect(summary.passed >= 42, "every v3, v4 and SPQR check, got \(summary.passed)")
        #expect(summary.skipped == 0 && summary.skippedNames.isEmpty, "checks skipped: \(summary.skippedNames)")
    }
}
