/// SPQR's systematic Reed–Solomon code over GF(2¹⁶): a message of N 32-byte chunks is read as big-endian 16-bit
/// values, value j being the point (x = j / 16, y) of polynomial j mod 16; chunk k holds the 16 polynomials'
/// values at x = k. Chunks 0…N−1 are therefore the message itself, later ones parity, and any N distinct chunks
/// rebuild the message (Lagrange interpolation).
public enum SPQRErasureCode {
    /// Chunk `index` (0…65535) of `message`, whose length must be a positive multiple of 32.
    public static func chunk(_ index: Int, of message: [UInt8]) -> [UInt8] {
        chunks([index], of: message)[index]!
    }

    /// The chunks at `indices` (each 0…65535) of `message`, whose length must be a positive multiple of 32. The
    /// Lagrange basis through the message's points is built once for all the parity chunks asked for, so n parity
    /// chunks of an n-chunk message cost 2n² products rather than n³.
    public static func chunks(_ indices: some Sequence<Int>, of message: [UInt8]) -> [Int: [UInt8]] {
        precondition(!message.isEmpty && message.count % SPQRMessage.chunkLength == 0)
        let count = message.count / SPQRMessage.chunkLength
        var basis: LagrangeBasis?
        var result: [Int: [UInt8]] = [:]
        for index in indices {
            precondition((0...SPQRMessage.maximumChunkIndex).contains(index))
            if index < count {
                result[index] = Array(message[index * 32..<index * 32 + 32])
                continue
            }
            if basis == nil { basis = LagrangeBasis(xs: (0..<count).map { UInt16($0) }) }
            result[index] = GF16.combine(weights: basis!.weights(at: UInt16(index)), rows: message)
        }
        return result
    }

    /// The message of `chunkCount` chunks rebuilt from `chunks` (index → 32 bytes): any `chunkCount` distinct
    /// indices will do; extra chunks are ignored.
    ///
    /// - Throws: ``SPQRError/undecodable(_:)`` with fewer than `chunkCount` chunks or a chunk that is not 32 bytes.
    public static func decode(_ chunks: [Int: [UInt8]], chunkCount: Int) throws -> [UInt8] {
        guard chunkCount > 0, chunkCount <= SPQRMessage.maximumChunkIndex + 1 else {
            throw SPQRError.undecodable("a message of \(chunkCount) chunks")
        }
        guard chunks.count >= chunkCount else { throw SPQRError.undecodable("\(chunks.count) of the \(chunkCount) chunks needed") }
        guard chunks.allSatisfy({ $0.value.count == SPQRMessage.chunkLength && (0...SPQRMessage.maximumChunkIndex).contains($0.key) })
        else {
            throw SPQRError.undecodable("a chunk is not 32 bytes at an index of 0…65535")
        }
        // The systematic chunks when all are there; otherwise the lowest indices given.
        if (0..<chunkCount).allSatisfy({ chunks[$0] != nil }) { return (0..<chunkCount).flatMap { chunks[$0]! } }
        let used = Array(chunks.keys.sorted().prefix(chunkCount))
        let usedRows = used.flatMap { chunks[$0]! }
        let basis = LagrangeBasis(xs: used.map { UInt16($0) })
        var message = [UInt8](repeating: 0, count: chunkCount * 32)
        for target in 0..<chunkCount {
            if let known = chunks[target] {
                message.replaceSubrange(target * 32..<target * 32 + 32, with: known)
                continue
            }
            message.replaceSubrange(
                target * 32..<target * 32 + 32, with: GF16.combine(weights: basis.weights(at: UInt16(target)), rows: usedRows))
        }
        return message
    }
}
