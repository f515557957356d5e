import Foundation
import NIOCore

/// A file read as an async sequence of 64 KiB buffers (for streamed uploads in bounded memory).
public struct FileChunks: AsyncSequence, Sendable {
    public typealias Element = ByteBuffer
    let url: URL
    let progress: @Sendable (Int64) -> Void

    /// The file at `url`, read from its start; `progress` hears the bytes read so far after each chunk.
    public init(url: URL, progress: @escaping @Sendable (Int64) -> Void = { _ in }) {
        self.url = url
        self.progress = progress
    }

    /// Reads the next chunk; `nil` at the end of the file (or when it cannot be opened).
    public struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle?
        let progress: @Sendable (Int64) -> Void
        var sent: Int64 = 0

        public mutating func next() async throws -> ByteBuffer? {
            guard let handle, let data = try handle.read(upToCount: 64 * 1024), !data.isEmpty else {
                try? handle?.close()
                return nil
            }
            sent += Int64(data.count)
            progress(sent)
            return ByteBuffer(bytes: data)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: try? FileHandle(forReadingFrom: url), progress: progress)
    }
}
