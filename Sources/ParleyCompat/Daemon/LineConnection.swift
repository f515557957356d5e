import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One JSON-RPC peer of the daemon: newline-delimited text read from one file descriptor and written to another
/// (stdin/stdout, or both ends of an accepted socket). Both directions are bounded, so one peer cannot hold up the
/// others or grow the daemon's memory: reading runs on a thread of its own and stays at most ``readAheadLines`` lines
/// ahead of the session (then the kernel's buffers, and TCP, hold the peer back); writing runs on another, from a queue
/// of at most ``maximumPendingBytes`` — answers and `receive` notifications are queued, never written by the caller,
/// so a peer that stops reading delays no one else and is disconnected when its queue is full.
final class LineConnection: Sendable {
    /// Longest request line accepted; a longer one is answered with an error and closes the connection.
    static let maximumLineBytes = 1024 * 1024
    /// Lines read before the session has taken them.
    static let readAheadLines = 16
    /// Answers and notifications waiting for a peer that does not read; past it the peer is disconnected (a daemon on
    /// stdin/stdout stops: its one client has stopped reading).
    static let maximumPendingBytes = 8 * 1024 * 1024
    /// What the session's own output (answers, a catch-up's notifications) may leave queued before the session waits
    /// for the peer to read: a slow reader slows its own session down, and only notifications from elsewhere, which
    /// cannot wait, can fill the queue to ``maximumPendingBytes``.
    static let pacedPendingBytes = 1024 * 1024

    /// What the peer sent.
    enum Incoming: Sendable, Equatable {
        /// One line, without its newline.
        case line(String)
        /// A line longer than ``maximumLineBytes``: nothing more is read.
        case tooLong
    }

    private struct Outbox {
        var pending: [Data] = []
        /// Queued and not yet written.
        var bytes = 0
        /// ``close()`` ran, or the peer was cut off: nothing more is queued.
        var closed = false
        /// ``close()`` ran: the session is done with the connection.
        var sessionDone = false
        /// The writer thread ended (everything queued before `closed` was written, or the peer stopped taking it).
        var writerDone = false
        /// No reader thread is reading the input.
        var readerDone = true
        /// The descriptors were closed (a descriptor is touched only under the lock, before this: its number may be
        /// reused by the next connection after).
        var released = false
        /// Sessions waiting for the writer to end (``close()``).
        var waitingForWriter: [CheckedContinuation<Void, Never>] = []
    }

    private let input: Int32
    private let output: Int32
    private let ownsDescriptors: Bool
    private let outbox = Mutex(Outbox())
    /// Signalled for each write and at close: the writer thread's wake-up.
    private let queued = DispatchSemaphore(value: 0)
    /// One per line the reader may read ahead; the session gives one back for each line it takes. (Made at 0 and
    /// signalled: libdispatch traps when a semaphore goes away below the value it was made with.)
    private let credits = DispatchSemaphore(value: 0)
    private let onClose: @Sendable () -> Void

    /// A connection over `input`/`output`; when `ownsDescriptors`, they are closed once it is closed and everything
    /// queued was written. `onClose` runs once, then.
    init(input: Int32, output: Int32, ownsDescriptors: Bool, onClose: @escaping @Sendable () -> Void = {}) {
        self.input = input
        self.output = output
        self.ownsDescriptors = ownsDescriptors
        self.onClose = onClose
        for _ in 0..<Self.readAheadLines { credits.signal() }
        Thread.detachNewThread { [self] in writeQueued() }
    }

    /// The incoming lines, ending at end of input, a read error or an over-long line (``Incoming/tooLong``).
    func lines() -> Lines {
        outbox.withLock { $0.readerDone = false }
        let stream = AsyncStream<Incoming> { continuation in
            Thread.detachNewThread { [self] in
                var buffer: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 64 * 1024)
                reading: while true {
                    let count = chunk.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    // What was read before holds no newline: only the new bytes are searched.
                    let searched = buffer.count
                    buffer += chunk[0..<count]
                    var start = 0
                    while let newline = buffer[max(start, searched)...].firstIndex(of: 10) {
                        credits.wait()
                        // Closed, or cut off: nothing more it sent is run.
                        if outbox.withLock({ $0.closed }) { break reading }
                        continuation.yield(.line(String(decoding: buffer[start..<newline], as: UTF8.self)))
                        start = newline + 1
                    }
                    buffer.removeSubrange(..<start)
                    if buffer.count > Self.maximumLineBytes {
                        continuation.yield(.tooLong)
                        break reading
                    }
                }
                continuation.finish()
                outbox.withLock { $0.readerDone = true }
                releaseIfDone()
            }
        }
        return Lines(stream: stream, credits: credits)
    }

    /// The lines of ``lines()``: taking one lets the reader read one more ahead.
    struct Lines: AsyncSequence {
        typealias Element = Incoming
        let stream: AsyncStream<Incoming>
        let credits: DispatchSemaphore

        func makeAsyncIterator() -> Iterator { Iterator(lines: stream.makeAsyncIterator(), credits: credits) }

        /// Gives a credit back for each line taken.
        struct Iterator: AsyncIteratorProtocol {
            var lines: AsyncStream<Incoming>.Iterator
            let credits: DispatchSemaphore

            mutating func next() async -> Incoming? {
                let next = await lines.next()
                if next != nil { credits.signal() }
                return next
            }
        }
    }

    /// Queues `data` to be written whole. A peer whose queue would pass ``maximumPendingBytes`` is cut off instead.
    func write(_ data: Data) {
        let accepted = outbox.withLock { box -> Bool in
            guard !box.closed else { return true }
            // One answer larger than the limit (a long history) still goes to a client that reads: only a queue that
            // already holds something is cut off.
            guard box.bytes == 0 || box.bytes + data.count <= Self.maximumPendingBytes else {
                box.closed = true
                return false
            }
            box.pending.append(data)
            box.bytes += data.count
            return true
        }
        if !accepted {
            guard ownsDescriptors else {
                FileHandle.standardError.write(
                    Data(
                        "parley daemon: the client left \(Self.maximumPendingBytes) bytes of answers and notifications unread; stopping\n"
                            .utf8))
                Foundation.exit(1)
            }
            // Its reader ends, then the session closes the connection.
            cutOff()
        }
        queued.signal()
    }

    /// Waits until the queue holds less than ``pacedPendingBytes`` (or the connection is closed): the session's pace.
    func paced() async {
        while !Task.isCancelled, outbox.withLock({ !$0.closed && $0.bytes >= Self.pacedPendingBytes }) {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Stops reading, and returns once what is queued was written (or given up on when the peer does not take it);
    /// the descriptors it owns are closed then.
    func close() async {
        outbox.withLock { box in
            if ownsDescriptors, !box.released { _ = Glibc.shutdown(input, Int32(SHUT_RD)) }
            box.closed = true
            box.sessionDone = true
        }
        credits.signal()  // a reader waiting for the session to take a line goes on, to the end of its input
        queued.signal()
        releaseIfDone()
        await withCheckedContinuation { continuation in
            let written = outbox.withLock { box -> Bool in
                guard !box.writerDone else { return true }
                box.waitingForWriter.append(continuation)
                return false
            }
            if written { continuation.resume() }
        }
    }

    /// Ends both directions of a socket peer (its reader sees the end, then the session closes the connection).
    private func cutOff() {
        outbox.withLock { box in
            box.closed = true
            if ownsDescriptors, !box.released { _ = Glibc.shutdown(input, Int32(SHUT_RDWR)) }
        }
    }

    /// The writer thread: writes what is queued, in order, until the connection is closed and its queue empty.
    private func writeQueued() {
        while true {
            queued.wait()
            let (batch, closed) = outbox.withLock { box in
                defer { box.pending = [] }
                return (box.pending, box.closed)
            }
            var delivered = true
            for data in batch where delivered { delivered = send(data) }
            outbox.withLock { $0.bytes -= batch.reduce(0) { $0 + $1.count } }
            if !delivered {
                // The peer went away, or stopped reading for the send timeout.
                cutOff()
                break
            }
            if closed && outbox.withLock({ $0.pending.isEmpty }) { break }
        }
        let waiting = outbox.withLock { box in
            box.writerDone = true
            defer { box.waitingForWriter = [] }
            return box.waitingForWriter
        }
        releaseIfDone()
        for session in waiting { session.resume() }
    }

    /// Writes `data` whole; `false` when the peer does not take it.
    private func send(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.send(output, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0 && errno == ENOTSOCK {
                    let plain = Glibc.write(output, raw.baseAddress! + offset, raw.count - offset)
                    if plain < 0 && errno == EINTR { continue }
                    guard plain > 0 else { return false }
                    offset += plain
                    continue
                }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }

    /// Closes the descriptors (when it owns them) and runs `onClose`, once both the session and the writer are done.
    private func releaseIfDone() {
        let released = outbox.withLock { box -> Bool in
            // (A reader of stdin may never end; the descriptors it reads are not closed here.)
            guard box.sessionDone, box.writerDone, box.readerDone || !ownsDescriptors, !box.released else { return false }
            box.released = true
            if ownsDescriptors {
                _ = Glibc.shutdown(input, Int32(SHUT_RDWR))
                _ = Glibc.close(input)
                if output != input { _ = Glibc.close(output) }
            }
            return true
        }
        if released { onClose() }
    }
}
