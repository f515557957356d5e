import Foundation
import ParleyTestSupport

/// Samples a running process's peak resident memory (`VmHWM` in `/proc/PID/status`) until it exits.
final class PeakMemorySampler: @unchecked Sendable {
    private let lock = NSLock()
    private var peakKiB = 0
    private var running = true

    /// Starts sampling `pid` every 10 ms on a thread of its own.
    init(pid: Int32) {
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                    let kiB = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
                {
                    lock.withLock { peakKiB = max(peakKiB, kiB) }
                }
                usleep(10_000)
            }
        }
    }

    /// Stops sampling; returns the highest peak seen, in MiB.
    func stop() -> Double {
        lock.withLock {
            running = false
            return Double(peakKiB) / 1024
        }
    }
}

/// A loopback TCP port that accepts connections and never answers: a server that hangs.
final class SilentListener: @unchecked Sendable {
    private let descriptor: Int32
    private let accepted = NSCondition()
    private var connections: [Int32] = []

    /// Listens on 127.0.0.1:`port`.
    init(port: Int) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else { throw CocoaError(.fileWriteUnknown) }
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { return }
                accepted.lock()
                connections.append(connection)
                accepted.broadcast()
                accepted.unlock()
            }
        }
    }

    /// Waits until someone connected (on a thread of its own: ``runBlocking(_:)``).
    func waitForConnection(timeout seconds: Double) async -> Bool {
        await runBlocking { self.blockingWaitForConnection(timeout: seconds) }
    }

    private func blockingWaitForConnection(timeout seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        accepted.lock()
        defer { accepted.unlock() }
        while connections.isEmpty { if !accepted.wait(until: deadline) { return false } }
        return true
    }

    /// Closes the port and every connection.
    func close() {
        accepted.lock()
        for connection in connections { Foundation.close(connection) }
        accepted.unlock()
        shutdown(descriptor, Int32(SHUT_RDWR))
        Foundation.close(descriptor)
    }
}
