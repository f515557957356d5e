import Hummingbird

/// A request body that fails with ``ServerError/payloadTooLarge(_:)`` once more than `limit` bytes arrive,
/// so a streamed upload is cut off without being buffered.
struct SizeLimitedBody<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer
    let base: Base
    let limit: Int64

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let limit: Int64
        var total: Int64 = 0

        mutating func next() async throws -> ByteBuffer? {
            guard let buffer = try await base.next() else { return nil }
            total += Int64(buffer.readableBytes)
            if total > limit { throw ServerError.payloadTooLarge(Int(limit)) }
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), limit: limit) }
}
