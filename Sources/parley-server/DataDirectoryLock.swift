import Foundation

/// An exclusive lock on a data directory (`server.lock`, holding the owner's pid), held while a server runs: a
/// second server on the same SQLite database would corrupt nothing (SQLite locks) but would split real-time delivery
/// and push presence between two processes that cannot see each other.
struct DataDirectoryLock: ~Copyable {
    private let descriptor: Int32

    /// Why the lock was not taken.
    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    /// Takes the lock on `directory`, or throws ``Refused`` naming the process that holds it.
    init(directory: String) throws {
        let path = (directory as NSString).appendingPathComponent("server.lock")
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Refused(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let owner = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            close(descriptor)
            throw Refused(
                description: "another parley-server\(owner.map { " (pid \($0))" } ?? "") is using \(directory); "
                    + "stop it first, or give this one its own --data-directory")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
