import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process with the part of Foundation's `Process` interface these tests use — executable, arguments,
/// environment, working directory, standard streams as a `Pipe` or a `FileHandle`, `run`, `terminate`, `interrupt`,
/// `isRunning`, `waitUntilExit`, the termination status and reason — started with `posix_spawn` directly.
///
/// Foundation's `Process.run()` on Swift 6.3.1 can crash the whole test process (it over-reads entries of
/// `/proc/self/fd`: swiftlang/swift-corelibs-foundation PR #5472, fixed after 6.3.1; see ``SpawnedProcess``). This
/// launcher lists no directory: the child closes every descriptor from 3 up with glibc's
/// `posix_spawn_file_actions_addclosefrom_np` (found with `dlsym`, as Swift's Glibc module does not declare it), or, on
/// a libc without it, each open one found by asking `fcntl`.
final class ChildProcess: @unchecked Sendable {
    var executableURL: URL?
    var arguments: [String] = []
    var environment: [String: String]?
    var currentDirectoryURL: URL?
    /// A `Pipe` (the child reads its reading end) or a `FileHandle`; `nil` is `/dev/null`.
    var standardInput: Any?
    /// A `Pipe` (the child writes its writing end, which this process closes once the child has it) or a
    /// `FileHandle`; `nil` inherits this process's.
    var standardOutput: Any?
    /// As ``standardOutput``.
    var standardError: Any?

    private struct State {
        var pid: pid_t = 0
        /// The raw `waitpid` status once the child is reaped.
        var status: Int32?
    }
    private let state = Mutex(State())

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The child's process id (0 before ``run()``).
    var processIdentifier: Int32 { state.withLock { $0.pid } }

    /// Starts the child.
    func run() throws {
        guard let executableURL else { throw Failure(description: "no executable") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var handedOver: [FileHandle] = []
        func attach(_ stream: Any?, to target: Int32, reading: Bool) {
            switch stream {
            case let pipe as Pipe:
                let end = reading ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                posix_spawn_file_actions_adddup2(&actions, end.fileDescriptor, target)
                handedOver.append(end)
            case let handle as FileHandle:
                posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target)
            default:
                if reading { posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDONLY, 0) }
            }
        }
        attach(standardInput, to: 0, reading: true)
        attach(standardOutput, to: 1, reading: false)
        attach(standardError, to: 2, reading: false)
        Self.closeEveryOtherDescriptor(&actions)

        let executable = executableURL.path
        let command =
            currentDirectoryURL.map { ["/usr/bin/env", "--chdir=\($0.path)", executable] + arguments } ?? [executable] + arguments
        let argv = command.map { strdup($0) } + [nil]
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var attributes = Self.freshSignalAttributes()
        defer { posix_spawnattr_destroy(&attributes) }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw Failure(description: "posix_spawn \(executable): \(String(cString: strerror(spawned)))") }
        state.withLock { $0.pid = pid }
        // The child has its ends; this process's copies go (through the handles, so nothing closes a number twice).
        for handle in handedOver { try? handle.close() }
    }

    /// Whether the child has not ended yet (reaping it when it has).
    var isRunning: Bool {
        state.withLock { state in
            guard state.pid > 0, state.status == nil else { return false }
            var status: Int32 = 0
            let reaped = waitpid(state.pid, &status, WNOHANG)
            if reaped == state.pid { state.status = status }
            return reaped == 0
        }
    }

    /// Sends SIGTERM.
    func terminate() { signal(SIGTERM) }

    /// Sends SIGINT.
    func interrupt() { signal(SIGINT) }

    private func signal(_ number: Int32) {
        let pid = state.withLock { $0.status == nil ? $0.pid : 0 }
        if pid > 0 { kill(pid, number) }
    }

    /// Blocks until the child ends.
    func waitUntilExit() {
        let pid = state.withLock { $0.status == nil ? $0.pid : 0 }
        guard pid > 0 else { return }
        var status: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(pid, &status, 0) } while reaped < 0 && errno == EINTR
        state.withLock { state in
            if reaped == pid, state.status == nil { state.status = status }
        }
    }

    /// The exit code, or the number of the signal that ended the child (0 while it runs).
    var terminationStatus: Int32 {
        guard let status = state.withLock({ $0.status }) else { return 0 }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }

    /// Whether the child exited or a signal ended it.
    var terminationReason: Process.TerminationReason {
        guard let status = state.withLock({ $0.status }) else { return .exit }
        return status & 0x7f == 0 ? .exit : .uncaughtSignal
    }

    deinit {
        // A child never waited for is reaped here, if it has ended, rather than left a zombie.
        let pid = state.withLock { $0.status == nil ? $0.pid : 0 }
        if pid > 0 {
            var status: Int32 = 0
            _ = waitpid(pid, &status, WNOHANG)
        }
    }

    /// Spawn attributes that give the child no blocked signals and every signal's default action, as Foundation's
    /// `Process` does: otherwise it inherits the spawning thread's mask (a blocked SIGTERM would make ``terminate()``
    /// do nothing) and this process's ignored signals (SIGPIPE).
    static func freshSignalAttributes() -> posix_spawnattr_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return attributes
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), when this libc has it.
    private static let closeFrom: CloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            return nil
        }
        return unsafeBitCast(symbol, to: CloseFrom.self)
    }()

    /// Adds to `actions` the closing of every descriptor from 3 up, after the standard streams are in place.
    static func closeEveryOtherDescriptor(_ actions: inout posix_spawn_file_actions_t) {
        if let closeFrom, closeFrom(&actions, 3) == 0 { return }
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let highest = Int32(clamping: min(limit.rlim_cur, 65_536))
        for fd in 3..<max(3, highest) where fcntl(fd, F_GETFD) != -1 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
    }
}
