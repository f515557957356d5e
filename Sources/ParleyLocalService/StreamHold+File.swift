import Foundation
import Hummingbird
import NIOCore

extension StreamHold {
    /// A response body streaming `reader` to the client 256 KiB at a time, each write under this hold's watch (a client
    /// that leaves a chunk untaken past the limit has its connection closed); the handle is closed at the end.
    public func body(streaming reader: FileHandle) -> ResponseBody {
        // The body holds this hold (its place and its watchdog) until it is done.
        ResponseBody { [self] writer in
            defer { try? reader.close() }
            watch.stopWaiting()
            while let chunk = try reader.read(upToCount: 256 * 1024), !chunk.isEmpty {
                try await watch.write { try await writer.write(ByteBuffer(bytes: chunk)) }
            }
            try await writer.finish(nil)
        }
    }
}
