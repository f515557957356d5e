/// Sends one erasure-coded payload: chunk 0, 1, 2, … one per message, past the systematic chunks (parity) for as
/// long as the state lasts; after index 65535 it starts again at 0 (as libsignal's encoder does; a receiver
/// ignores an index it holds).
struct SPQRPayloadEncoder: Sendable {
    let payload: [UInt8]
    var nextIndex = 0

    init(_ payload: [UInt8]) {
        precondition(!payload.isEmpty && payload.count % SPQRMessage.chunkLength == 0)
        self.payload = payload
    }

    mutating func next() -> SPQRMessage.Chunk {
        defer { nextIndex = nextIndex == SPQRMessage.maximumChunkIndex ? 0 : nextIndex + 1 }
        return SPQRMessage.Chunk(index: nextIndex, bytes: SPQRErasureCode.chunk(nextIndex, of: payload))
    }
}

/// Collects the chunks of one payload until any `length / 32` distinct ones rebuild it. Holds at most that many
/// chunks, whatever a sender sends.
struct SPQRPayloadDecoder: Sendable {
    let length: Int
    var chunks: [Int: [UInt8]] = [:]

    init(length: Int) {
        precondition(length > 0 && length % SPQRMessage.chunkLength == 0)
        self.length = length
    }

    var chunkCount: Int { length / SPQRMessage.chunkLength }

    /// Adds `chunk` (a repeated index adds nothing); returns the payload once it can be rebuilt.
    mutating func add(_ chunk: SPQRMessage.Chunk) throws -> [UInt8]? {
        if chunks[chunk.index] == nil, chunks.count < chunkCount { chunks[chunk.index] = chunk.bytes }
        guard chunks.count == chunkCount else { return nil }
        return try SPQRErasureCode.decode(chunks, chunkCount: chunkCount)
    }
}
