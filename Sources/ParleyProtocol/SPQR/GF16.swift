/// Arithmetic in GF(2¹⁶) with the reduction polynomial x¹⁶ + x¹² + x³ + x + 1 (0x1100B), the field of SPQR's
/// erasure code. Addition is XOR; multiplication goes through log/antilog tables over a generator found at first
/// use (the data is public: no constant-time requirement).
enum GF16 {
    static let polynomial: UInt32 = 0x1100B

    private struct Tables {
        let log: [UInt16]
        let exp: [UInt16]  // doubled, so exp[log a + log b] needs no reduction
    }

    private static let tables: Tables = {
        // The smallest element whose powers run through all 65,535 non-zero elements.
        for generator in UInt32(2)... {
            var exp = [UInt16](repeating: 0, count: 2 * 65_535)
            var log = [UInt16](repeating: 0, count: 65_536)
            var value: UInt32 = 1
            var full = true
            for power in 0..<65_535 {
                if power > 0, value == 1 {
                    full = false
                    break
                }
                exp[power] = UInt16(value)
                log[Int(value)] = UInt16(power)
                value = slowMultiply(value, generator)
            }
            guard full, value == 1 else { continue }
            for power in 65_535..<(2 * 65_535) { exp[power] = exp[power - 65_535] }
            return Tables(log: log, exp: exp)
        }
        preconditionFailure("GF(2^16) has a generator")
    }()

    /// Carry-less multiplication with reduction (builds the tables; the tests check the tables against it).
    static func slowMultiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var a = a
        var b = b
        var result: UInt32 = 0
        while b != 0 {
            if b & 1 != 0 { result ^= a }
            b >>= 1
            a <<= 1
            if a & 0x10000 != 0 { a ^= polynomial }
        }
        return result
    }

    static func multiply(_ a: UInt16, _ b: UInt16) -> UInt16 {
        guard a != 0, b != 0 else { return 0 }
        let t = tables
        return t.exp[Int(t.log[Int(a)]) + Int(t.log[Int(b)])]
    }

    /// Σᵢ `weights[i]` · row i, element by element, where row i is the 16 big-endian field elements (32 bytes) at
    /// `rows[32i..<32i + 32]`: one chunk of the erasure code from the chunks it is combined from. The tables are read
    /// through buffer pointers and each weight's logarithm is taken once, so the inner loop is a table lookup per
    /// non-zero element.
    static func combine(weights: [UInt16], rows: [UInt8]) -> [UInt8] {
        precondition(rows.count >= weights.count * 32, "a row for every weight")
        let t = tables
        var values = [UInt16](repeating: 0, count: 16)
        t.log.withUnsafeBufferPointer { log in
            t.exp.withUnsafeBufferPointer { exp in
                rows.withUnsafeBufferPointer { rows in
                    values.withUnsafeMutableBufferPointer { values in
                        for (row, weight) in weights.enumerated() where weight != 0 {
                            let logWeight = Int(log[Int(weight)])
                            let base = row * 32
                            for element in 0..<16 {
                                let y = UInt16(rows[base + 2 * element]) << 8 | UInt16(rows[base + 2 * element + 1])
                                if y != 0 { values[element] ^= exp[logWeight + Int(log[Int(y)])] }
                            }
                        }
                    }
                }
            }
        }
        var chunk = [UInt8](repeating: 0, count: 32)
        for (element, value) in values.enumerated() {
            chunk[2 * element] = UInt8(value >> 8)
            chunk[2 * element + 1] = UInt8(value & 0xFF)
        }
        return chunk
    }

    /// The inverse of a non-zero element.
    static func inverse(_ a: UInt16) -> UInt16 {
        precondition(a != 0, "0 has no inverse")
        let t = tables
        return t.exp[(65_535 - Int(t.log[Int(a)])) % 65_535]
    }
}
