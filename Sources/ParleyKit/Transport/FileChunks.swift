import Foundation
import NIOCore

/// A file read as an async sequence of 64 KiB buffers (for streamed uploads in bounded memory).
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let url: URL
    let progress: @Sendable (Int64) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle?
        let progress: @Sendable (Int64) -> Void
        var sent: Int64 = 0

        mutating func next() async throws -> ByteBuffer? {
            guard let handle, let data = try handle.read(upToCount: 64 * 1024), !data.isEmpty else {
                try? handle?.close()
                return nil
            }
            sent += Int64(data.count)
            progress(sent)
            return ByteBuffer(bytes: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: try? FileHandle(forReadingFrom: url), progress: progress)
    }
}
