import Foundation
import Synchronization

/// The private place where a client process keeps the files it is making — downloaded ciphertext, plaintext on its
/// way to its destination, encrypted uploads, the text file of a long message — so that none outlives the process.
///
/// Each process that needs one gets `<root>/<pid>-<random>/`, mode 0700 under a 0700 root (its files are unreadable
/// to other users whatever their own mode), and holds an exclusive `flock` on a `.lock` file in it for as long as it
/// lives. ``sweep()`` — run when an account is opened — removes every directory whose lock no process holds: what a
/// killed or interrupted process left behind. ``close()`` removes this process's own.
final class AttachmentStaging: Sendable {
    /// Where every process's staging directory lives (`<account>/attachments/staging`).
    let root: URL
    private let current = Mutex<(directory: URL, lock: Int32)?>(nil)

    /// Staging under `root`; nothing is created until a file is asked for.
    init(root: URL) {
        self.root = root
    }

    /// A fresh path for a file named after `purpose` in this process's directory (made on first use).
    func file(_ purpose: String) throws -> URL {
        try directory().appendingPathComponent("\(purpose)-\(UUID().uuidString)")
    }

    /// This process's directory, made and locked on first use.
    func directory() throws -> URL {
        try current.withLock { current in
            if let current { return current.directory }
            try Self.makePrivateDirectory(root)
            let directory = root.appendingPathComponent("\(getpid())-\(UUID().uuidString.prefix(8))")
            try Self.makePrivateDirectory(directory)
            let lock = open(directory.appendingPathComponent(".lock").path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
            guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0 else {
                if lock >= 0 { Foundation.close(lock) }
                throw ParleyError.invalidArgument(
                    "cannot lock the staging directory \(directory.path): \(String(cString: strerror(errno)))")
            }
            current = (directory, lock)
            return directory
        }
    }

    /// Removes this process's directory and everything in it.
    func close() {
        guard
            let (directory, lock) = current.withLock({ current in
                defer { current = nil }
                return current
            })
        else { return }
        try? FileManager.default.removeItem(at: directory)
        Foundation.close(lock)
    }

    /// Removes the staging directories no living process holds (best effort: what cannot be removed stays for the
    /// next sweep). A directory still without its lock file is being made and is left alone unless an hour old.
    func sweep() {
        guard let entries = try? FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: [.creationDateKey]) else {
            return
        }
        let own = current.withLock { $0?.directory.standardizedFileURL }
        for entry in entries where entry.standardizedFileURL != own {
            let lock = open(entry.appendingPathComponent(".lock").path, O_RDWR | O_CLOEXEC)
            if lock < 0 {
                let created = (try? entry.resourceValues(forKeys: [.creationDateKey]).creationDate) ?? Date()
                if Date().timeIntervalSince(created) > 3600 { try? FileManager.default.removeItem(at: entry) }
                continue
            }
            if flock(lock, LOCK_EX | LOCK_NB) == 0 { try? FileManager.default.removeItem(at: entry) }
            Foundation.close(lock)
        }
    }

    private static func makePrivateDirectory(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // An existing directory keeps its mode: make it private too.
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
    }
}
