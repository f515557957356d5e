import FuzzHarness
import ParleyProtocol

/// SPQR's `pq_ratchet` codec and its systematic Reed–Solomon erasure code over GF(2¹⁶).
enum SPQRTargets {
    static let message = FuzzTarget(
        run: { input in
            guard let message = try? SPQRMessage(bytes: input) else { return }
            invariant((try? SPQRMessage(bytes: message.serialize())) == message, "a parsed SPQR message round-trips")
        },
        seeds: {
            [
                SPQRMessage(epoch: 1, index: 0, kind: .none).serialize(),
                SPQRMessage(epoch: 3, index: 70_000, kind: .header, chunk: .init(index: 40_000, bytes: Array(repeating: 7, count: 32)))
                    .serialize(),
            ]
        })

    /// Differential: a message of N chunks (N and bytes from the input) decodes from any N distinct chunk indices the
    /// input picks (raw or parity) to exactly itself; and decoding arbitrary chunks the input spells out is refused
    /// or returns N chunks' worth of bytes, never a crash.
    static let erasureCode = FuzzTarget(
        run: { input in
            guard input.count >= 2 else { return }
            var reader = ByteReader(input)
            let count = Int(reader.byte() % 40) + 1
            let message = (0..<count * SPQRMessage.chunkLength).map { _ in reader.byte() }
            var indices: [Int] = []
            while indices.count < count {
                let index = Int(UInt16(reader.byte()) << 8 | UInt16(reader.byte()))
                if !indices.contains(index) { indices.append(index) }
                if reader.isExhausted && indices.count < count {
                    let taken = Set(indices)
                    indices += (0...SPQRMessage.maximumChunkIndex).lazy.filter { !taken.contains($0) }.prefix(count - indices.count)
                }
            }
            let chunks = SPQRErasureCode.chunks(indices, of: message)
            let probe = indices.first { $0 >= count } ?? indices[0]  // a parity chunk when there is one
            invariant(
                chunks.count == count && SPQRErasureCode.chunk(probe, of: message) == chunks[probe],
                "the chunks asked for together are the chunks asked for one by one")
            invariant((try? SPQRErasureCode.decode(chunks, chunkCount: count)) == message, "any \(count) chunks decode to the message")

            // The raw input as chunks: [index hi, index lo, length, bytes…]*, chunk count first.
            var raw = ByteReader(input)
            let claimed = Int(raw.byte()) + 1
            var hostile: [Int: [UInt8]] = [:]
            while !raw.isExhausted && hostile.count < 64 {
                let index = Int(UInt16(raw.byte()) << 8 | UInt16(raw.byte()))
                let length = Int(raw.byte() % 40)
                hostile[index] = (0..<length).map { _ in raw.byte() }
            }
            if let decoded = try? SPQRErasureCode.decode(hostile, chunkCount: claimed) {
                invariant(decoded.count == claimed * SPQRMessage.chunkLength, "a decoded message has the chunks' length")
            }
        }, seeds: { [[3] + Array(repeating: 0x41, count: 96) + [0, 0, 0, 5, 1, 2], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]] })
}
