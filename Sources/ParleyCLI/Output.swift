import Foundation
import ParleyKit

/// Prints results as text for people or as JSON lines for scripts.
struct Output {
    let json: Bool

    /// Prints `value` as one JSON line, or `text` when not in JSON mode.
    func emit(_ value: some Encodable, text: @autoclosure () -> String) {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        } else {
            print(text())
            fflush(nil)  // flushes stdout: a pipe is block-buffered, and a waiting command's instructions must show now
        }
    }

    /// Reports a queued change that was sent (or will be retried) by a job pass.
    func emitJobs(_ report: ParleyClient.JobReport, text: String) {
        struct Jobs: Encodable {
            let sent: Int
            let failed: Int
            let deferred: Int
        }
        emit(
            Jobs(sent: report.completed, failed: report.failed, deferred: report.deferred),
            text: report.deferred > 0 ? "\(text) (queued: the server is unreachable, it will be retried)" : text)
    }

    /// A progress line on stderr (attachment transfers), rewritten in place.
    static func progress(_ label: String, done: Int64, total: Int64) {
        // A bar rewritten with \r means something only on a terminal; a log or a pipe gets nothing.
        guard total > 0, isatty(STDERR_FILENO) == 1 else { return }
        let width = 30
        let filled = Int(Double(done) / Double(total) * Double(width))
        let bar = String(repeating: "#", count: min(filled, width)) + String(repeating: ".", count: max(0, width - filled))
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(done * 100 / total)%".utf8))
        if done >= total { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
