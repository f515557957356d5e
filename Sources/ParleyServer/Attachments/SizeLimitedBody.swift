import Foundation
import Hummingbird
import Synchronization

/// A request body that fails with ``ServerError/payloadTooLarge(_:)`` once more than `limit` bytes arrive,
/// so a streamed upload is cut off without being buffered.
struct SizeLimitedBody<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer
    let base: Base
    let limit: Int64
    /// Set once the limit was passed: a consumer that wraps the error it got (Hummingbird's file writer does) can still
    /// tell this refusal from a broken upload.
    let overran = Overrun()

    /// Whether more than ``SizeLimitedBody/limit`` bytes arrived.
    final class Overrun: Sendable {
        private let flag = Atomic(false)
        var happened: Bool { flag.load(ordering: .relaxed) }
        func record() { flag.store(true, ordering: .relaxed) }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let limit: Int64
        let overran: Overrun
        var total: Int64 = 0

        mutating func next() async throws -> ByteBuffer? {
            guard let buffer = try await base.next() else { return nil }
            total += Int64(buffer.readableBytes)
            if total > limit {
                overran.record()
                throw ServerError.payloadTooLarge(Int(clamping: limit))
            }
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), limit: limit, overran: overran) }

    /// Streams the body into the file at `path` with `fileIO`. Past the limit it throws
    /// ``ServerError/payloadTooLarge(_:)`` (413), however the writer wrapped the error; any other failure is a 400
    /// "the upload did not complete" (logged). The partial file is removed either way.
    func write(to path: String, with fileIO: FileIO, context: some RequestContext) async throws {
        do {
            try await fileIO.writeFile(contents: self, path: path, context: context)
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            if overran.happened { throw ServerError.payloadTooLarge(Int(clamping: limit)) }
            if let error = error as? ServerError { throw error }
            context.logger.warning("an upload failed", metadata: ["error": "\(error)"])
            throw ServerError.badRequest("the upload did not complete")
        }
    }
}
