/// Reed–Solomon error correction over GF(2⁸) with the QR code's polynomial x⁸ + x⁴ + x³ + x² + 1.
enum ReedSolomon {
    /// The generator polynomial of `degree` (its coefficients from the highest power down, the leading 1 left out).
    static func divisor(degree: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: degree)
        result[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for index in 0..<degree {
                result[index] = multiply(result[index], root)
                if index + 1 < degree { result[index] ^= result[index + 1] }
            }
            root = multiply(root, 0x02)
        }
        return result
    }

    /// The error-correction codewords of `data`: the remainder of its polynomial divided by `divisor`.
    static func remainder(_ data: [UInt8], divisor: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: divisor.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for index in result.indices { result[index] ^= multiply(divisor[index], factor) }
        }
        return result
    }

    /// The product of `x` and `y` in GF(2⁸) modulo 0x11D.
    static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var result = 0
        for shift in stride(from: 7, through: 0, by: -1) {
            result = (result << 1) ^ ((result >> 7) * 0x11D)
            result ^= ((Int(y) >> shift) & 1) * Int(x)
        }
        return UInt8(result & 0xFF)
    }
}
