/// Bits appended most significant first, read back as bytes.
struct BitBuffer {
    private(set) var bits: [Bool] = []

    var count: Int { bits.count }

    /// Appends the low `count` bits of `value`, most significant first.
    mutating func append(_ value: Int, count: Int) {
        guard count > 0 else { return }
        for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
    }

    /// The bits as bytes (the last one padded with zeros).
    var bytes: [UInt8] {
        stride(from: 0, to: bits.count, by: 8).map { start in
            (0..<8).reduce(UInt8(0)) { byte, offset in
                byte << 1 | (start + offset < bits.count && bits[start + offset] ? 1 : 0)
            }
        }
    }
}
