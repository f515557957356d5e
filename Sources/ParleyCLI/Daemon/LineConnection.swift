import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One JSON-RPC peer of the daemon: newline-delimited text read from one file descriptor and written to another
/// (stdin/stdout, or both ends of an accepted Unix socket). Reading runs on a thread of its own; writes are
/// serialized, since responses and notifications come from different tasks.
final class LineConnection: Sendable {
    /// Longest request line accepted; a longer one closes the connection.
    static let maximumLineBytes = 1024 * 1024

    private let input: Int32
    private let output: Int32
    private let ownsDescriptors: Bool
    /// Whether ``close()`` ran; held while writing, so a write never meets a closed descriptor.
    private let closed = Mutex(false)

    /// A connection over `input`/`output`; when `ownsDescriptors`, ``close()`` closes them.
    init(input: Int32, output: Int32, ownsDescriptors: Bool) {
        self.input = input
        self.output = output
        self.ownsDescriptors = ownsDescriptors
    }

    /// The incoming lines (without their newline), ending at end of input, a read error or an over-long line.
    func lines() -> AsyncStream<String> {
        AsyncStream { continuation in
            Thread.detachNewThread { [input] in
                var buffer: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 64 * 1024)
                reading: while true {
                    let count = chunk.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    buffer += chunk[0..<count]
                    while let newline = buffer.firstIndex(of: 10) {
                        continuation.yield(String(decoding: buffer[..<newline], as: UTF8.self))
                        buffer.removeSubrange(...newline)
                    }
                    if buffer.count > Self.maximumLineBytes { break reading }
                }
                continuation.finish()
            }
        }
    }

    /// Writes `data` whole; a peer that went away is ignored (its lines end on their own), and a socket peer that
    /// stops reading is disconnected once a write has waited for the send timeout (so it cannot stall the others).
    func write(_ data: Data) {
        closed.withLock { closed in
            guard !closed else { return }
            data.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = Glibc.send(output, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                    if written < 0 && errno == ENOTSOCK {
                        let plain = Glibc.write(output, raw.baseAddress! + offset, raw.count - offset)
                        if plain < 0 && errno == EINTR { continue }
                        guard plain > 0 else { return }
                        offset += plain
                        continue
                    }
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else {
                        if ownsDescriptors { _ = Glibc.shutdown(output, Int32(SHUT_RDWR)) }  // its reader ends, then close()
                        return
                    }
                    offset += written
                }
            }
        }
    }

    /// Closes the descriptors it owns.
    func close() {
        guard ownsDescriptors else { return }
        closed.withLock { closed in
            guard !closed else { return }
            closed = true
            _ = Glibc.shutdown(input, Int32(SHUT_RDWR))
            _ = Glibc.close(input)
            if output != input { _ = Glibc.close(output) }
        }
    }
}
