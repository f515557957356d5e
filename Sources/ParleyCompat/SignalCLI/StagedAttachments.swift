import Foundation
import ParleyKit
import Synchronization

/// Attachments given as `data:` URIs (signal-cli's and signal-cli-rest-api's way of sending bytes): written to files in a
/// private (0700) folder until the messages carrying them are out, then deleted. A message the server could not take yet
/// keeps its file until a later job pass sends it.
final class StagedAttachments: Sendable {
    /// The folder files are written to.
    let folder: URL
    private let pending = Mutex<[(messages: [Int64], files: [URL])]>([])

    /// Stages into `folder` (made by the caller, 0700).
    init(folder: URL) { self.folder = folder }

    /// `text` as a file to attach: a path as it is, or a `data:<type>[;filename=NAME];base64,…` URI written to a file.
    /// - Throws: signal-cli's user error for a malformed URI.
    func file(for text: String) throws -> URL {
        guard text.hasPrefix("data:") else { return URL(fileURLWithPath: text) }
        guard let comma = text.firstIndex(of: ","), text[..<comma].hasSuffix(";base64"),
            let bytes = Data(base64Encoded: String(text[text.index(after: comma)...]))
        else {
            throw JSONRPCError.userError("Invalid attachment: a data URI must be data:<type>;base64,<data>")
        }
        let header = text[text.index(text.startIndex, offsetBy: 5)..<comma]
        let name =
            header.split(separator: ";").first { $0.hasPrefix("filename=") }.map { String($0.dropFirst(9)) }
            .map { URL(fileURLWithPath: $0).lastPathComponent } ?? "attachment"
        let directory = folder.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = directory.appendingPathComponent(name.isEmpty ? "attachment" : name)
        do {
            try bytes.write(to: file)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw JSONRPCError.userError("Invalid attachment: cannot stage \(name): \(error.localizedDescription)")
        }
        return file
    }

    /// Deletes `files` staged here that no message carries (the send failed before queueing them).
    func discard(_ files: [URL]) {
        for file in files where file.path.hasPrefix(folder.path) {
            try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
        }
    }

    /// Remembers that `messages` carry `files` (those of them staged here).
    func track(_ files: [URL], carriedBy messages: [Int64]) {
        let staged = files.filter { $0.path.hasPrefix(folder.path) }
        guard !staged.isEmpty else { return }
        pending.withLock { $0.append((messages, staged)) }
    }

    /// Deletes the files whose messages are no longer being sent (sent or failed), as `client` says.
    func removeFinished(_ client: any CompatClient) throws {
        let entries = pending.withLock { $0 }
        var done: Set<URL> = []
        for entry in entries where try entry.messages.allSatisfy({ try client.message(id: $0)?.status != .sending }) {
            for file in entry.files {
                try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
                done.insert(file)
            }
        }
        pending.withLock { entries in entries.removeAll { $0.files.allSatisfy(done.contains) } }
    }
}
