import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The claim of one process to receive for an account: an exclusive `flock` on `receiving.lock` in the account's
/// directory, held until ``release()`` or the process ends (the kernel drops it then, even after `kill -9`). Two
/// receivers on one account would split its messages between them (each shows what it drained); signal-cli locks its
/// data directory for the same reason. Sending, history and the rest need no claim.
final class ReceivingLock: Sendable {
    private let path: String
    private let descriptor = Mutex<Int32?>(nil)

    /// A lock at `directory`/`receiving.lock`, not taken yet.
    init(directory: URL) {
        path = directory.appendingPathComponent("receiving.lock").path
    }

    /// Takes the lock (nothing happens when this client holds it already), writing this process's id into the file.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` naming the process that holds it.
    func claim() throws {
        try descriptor.withLock { held in
            guard held == nil else { return }
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                throw ParleyError.invalidArgument("cannot open \(path): \(String(cString: strerror(errno)))")
            }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                var buffer = [UInt8](repeating: 0, count: 32)
                let count = pread(fd, &buffer, buffer.count, 0)
                close(fd)
                let holder =
                    count > 0
                    ? Int32(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) : nil
                throw ParleyError.invalidArgument(
                    "another parley process\(holder.map { " (pid \($0))" } ?? "") is receiving for this account: stop it first, "
                        + "or have it do the work (parley daemon); two receivers would split the messages between them")
            }
            let pid = Array("\(getpid())\n".utf8)
            _ = ftruncate(fd, 0)
            _ = pwrite(fd, pid, pid.count, 0)
            held = fd
        }
    }

    /// Gives the lock up.
    func release() {
        descriptor.withLock { held in
            if let fd = held { close(fd) }
            held = nil
        }
    }
}
