import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The test launcher (``ChildProcess``, ``SpawnedProcess``): a child holds only its three standard streams, whatever
/// this process has open, and starts with no blocked or ignored signals, as Foundation's `Process` gives it.
@Suite struct ChildProcessTests {
    @Test func aChildHoldsOnlyItsStandardStreamsAndDefaultSignals() async throws {
        // Descriptors this process holds open (a file and a socket pair), which no child may keep.
        let file = open("/proc/self/stat", O_RDONLY)
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { for fd in [file] + pair where fd >= 0 { close(fd) } }

        // `ls` lists its own descriptors: 0, 1, 2 and the one it reads the directory with.
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", "ls /proc/self/fd; grep -E '^Sig(Blk|Ign)' /proc/self/status"]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let text = String(decoding: await output.fileHandleForReading.readAll(), as: UTF8.self)
        await child.exited()
        #expect(child.terminationStatus == 0 && child.terminationReason == .exit)
        let lines = text.split(separator: "\n")
        let descriptors = lines.compactMap { Int($0) }
        #expect(descriptors.filter { $0 > 3 }.isEmpty, "the child kept \(descriptors)")
        // Signals 1–31 neither blocked nor ignored (32 and up are glibc's own, which no spawn attribute resets).
        for field in ["SigBlk:", "SigIgn:"] {
            let mask = lines.first { $0.hasPrefix(field) }.flatMap {
                UInt64($0.dropFirst(field.count).trimmingCharacters(in: .whitespaces), radix: 16)
            }
            #expect(mask.map { $0 & 0x7fff_ffff == 0 } == true, "\(field) \(text)")
        }

        // The same for a command run to its end.
        let run = try SpawnedProcess.run("/bin/ls", ["/proc/self/fd"], environment: [:])
        #expect(String(decoding: run.stdout, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }.filter { $0 > 3 }.isEmpty)

        // A child ended by a signal says so.
        let sleeper = ChildProcess()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["30"]
        try sleeper.run()
        #expect(sleeper.isRunning)
        sleeper.terminate()
        await sleeper.exited()
        #expect(!sleeper.isRunning && sleeper.terminationReason == .uncaughtSignal && sleeper.terminationStatus == SIGTERM)
    }
}
