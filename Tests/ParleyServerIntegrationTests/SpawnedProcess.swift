import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program to its end with `posix_spawn`, its standard output and error collected, its input `/dev/null` or a
/// descriptor given.
///
/// Foundation's `Process.run()` on Swift 6.3.1 can crash the whole test process: it reads each entry of
/// `/proc/self/fd` by copying a full 256-byte `d_name`, which over-reads past glibc's buffer when an entry sits at its
/// end (swiftlang/swift-corelibs-foundation PR #5472, fixed after 6.3.1). Two clean-clone CI runs crashed that way in
/// ``ProcessRun``. This launcher lists no directory (``ChildProcess`` closes the child's other descriptors); for a
/// process that runs beside the test, use ``ChildProcess``.
enum SpawnedProcess {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `executable` with `arguments` and `environment`; returns the exit status (the signal number when a signal
    /// ended it, as `Process.terminationStatus` has it), standard output and standard error.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], input: Int32? = nil, directory: String? = nil
    ) throws -> (
        status: Int32, stdout: Data, stderr: Data
    ) {
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0 else { throw Failure(description: "pipe: \(errno)") }
        guard pipe(&errPipe) == 0 else {
            close(outPipe[0])
            close(outPipe[1])
            throw Failure(description: "pipe: \(errno)")
        }
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        // Every other descriptor of this process closed in the child (Foundation's Process does the same by listing
        // /proc/self/fd, which is what crashes): a child must not keep the test servers' sockets open for as long as it
        // runs.
        ChildProcess.closeEveryOtherDescriptor(&actions)

        // A working directory through coreutils' `env --chdir` (glibc's addchdir action is not in Swift's Glibc).
        let command = directory.map { ["/usr/bin/env", "--chdir=\($0)", executable] + arguments } ?? [executable] + arguments
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var attributes = ChildProcess.freshSignalAttributes()
        defer { posix_spawnattr_destroy(&attributes) }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, &attributes, argv, envp)
        close(outPipe[1])
        close(errPipe[1])
        guard spawned == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw Failure(description: "posix_spawn \(executable): \(spawned)")
        }
        // Both pipes read together, so a child filling one while the other is read never blocks.
        var outputs = [Data(), Data()]
        var fds = [pollfd(fd: outPipe[0], events: Int16(POLLIN), revents: 0), pollfd(fd: errPipe[0], events: Int16(POLLIN), revents: 0)]
        var open = 2
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while open > 0 {
            guard poll(&fds, nfds_t(fds.count), -1) >= 0 || errno == EINTR else { break }
            for index in fds.indices where fds[index].fd >= 0 && fds[index].revents != 0 {
                let count = read(fds[index].fd, &buffer, buffer.count)
                if count > 0 {
                    outputs[index].append(contentsOf: buffer[..<count])
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(fds[index].fd)
                    fds[index].fd = -1
                    open -= 1
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        let code = signal == 0 ? (status >> 8) & 0xff : signal
        return (code, outputs[0], outputs[1])
    }
}
