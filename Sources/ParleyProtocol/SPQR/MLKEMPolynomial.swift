/// A polynomial of ML-KEM (FIPS 203): 256 coefficients modulo q = 3329, in the normal or the NTT domain.
///
/// Everything here runs in time independent of the coefficients (they are secret during encapsulation):
/// reductions are Barrett multiplications with masked corrections, never `%` or a data-dependent branch, and
/// tables are indexed only by public positions.
struct MLKEMPolynomial: Sendable, Equatable {
    static let q: UInt32 = 3329
    static let degree = 256

    var coefficients: [UInt32]

    init(coefficients: [UInt32]) {
        precondition(coefficients.count == Self.degree)
        self.coefficients = coefficients
    }

    static var zero: MLKEMPolynomial { MLKEMPolynomial(coefficients: [UInt32](repeating: 0, count: degree)) }

    // MARK: Arithmetic modulo q

    /// x mod q for any 32-bit x: Barrett with 2^40 / q, then one masked subtraction.
    @inline(__always)
    static func reduce(_ x: UInt32) -> UInt32 {
        let quotient = UInt32(truncatingIfNeeded: (UInt64(x) &* 330_282_856) >> 40)
        return subtractQIfAbove(x &- quotient &* q)
    }

    /// x − q when x ≥ q, else x (for x < 2q), without a branch.
    @inline(__always)
    static func subtractQIfAbove(_ x: UInt32) -> UInt32 {
        let difference = x &- q
        let keep = UInt32(bitPattern: Int32(bitPattern: difference) >> 31)  // all ones when x < q
        return difference &+ (q & keep)
    }

    static func + (lhs: MLKEMPolynomial, rhs: MLKEMPolynomial) -> MLKEMPolynomial {
        MLKEMPolynomial(coefficients: (0..<degree).map { subtractQIfAbove(lhs.coefficients[$0] &+ rhs.coefficients[$0]) })
    }

    // MARK: NTT (FIPS 203 §4.3)

    /// 17^BitRev7(i) mod q.
    static let zetas: [UInt32] = (0..<128).map { power(17, bitReverse7($0)) }
    /// 17^(2·BitRev7(i)+1) mod q, the γ of MultiplyNTTs.
    static let gammas: [UInt32] = (0..<128).map { power(17, 2 * bitReverse7($0) + 1) }

    static func bitReverse7(_ value: Int) -> Int {
        (0..<7).reduce(0) { $0 | ((value >> $1) & 1) << (6 - $1) }
    }

    static func power(_ base: UInt32, _ exponent: Int) -> UInt32 {
        var result: UInt32 = 1
        for _ in 0..<exponent { result = reduce(result &* base) }
        return result
    }

    /// Algorithm 9: the NTT, in place.
    func ntt() -> MLKEMPolynomial {
        var f = coefficients
        var i = 1
        var length = 128
        while length >= 2 {
            for start in stride(from: 0, to: Self.degree, by: 2 * length) {
                let zeta = Self.zetas[i]
                i += 1
                for j in start..<(start + length) {
                    let t = Self.reduce(zeta &* f[j + length])
                    f[j + length] = Self.subtractQIfAbove(f[j] &+ Self.q &- t)
                    f[j] = Self.subtractQIfAbove(f[j] &+ t)
                }
            }
            length /= 2
        }
        return MLKEMPolynomial(coefficients: f)
    }

    /// Algorithm 10: the inverse NTT.
    func inverseNTT() -> MLKEMPolynomial {
        var f = coefficients
        var i = 127
        var length = 2
        while length <= 128 {
            for start in stride(from: 0, to: Self.degree, by: 2 * length) {
                let zeta = Self.zetas[i]
                i -= 1
                for j in start..<(start + length) {
                    let t = f[j]
                    f[j] = Self.subtractQIfAbove(t &+ f[j + length])
                    f[j + length] = Self.reduce(zeta &* Self.subtractQIfAbove(f[j + length] &+ Self.q &- t))
                }
            }
            length *= 2
        }
        return MLKEMPolynomial(coefficients: f.map { Self.reduce($0 &* 3303) })  // 3303 = 128⁻¹ mod q
    }

    /// Algorithm 11: the product of two polynomials in the NTT domain.
    func multiplyNTT(_ other: MLKEMPolynomial) -> MLKEMPolynomial {
        var h = [UInt32](repeating: 0, count: Self.degree)
        for i in 0..<128 {
            let a0 = coefficients[2 * i]
            let a1 = coefficients[2 * i + 1]
            let b0 = other.coefficients[2 * i]
            let b1 = other.coefficients[2 * i + 1]
            h[2 * i] = Self.reduce(Self.reduce(a0 &* b0) &+ Self.reduce(Self.reduce(a1 &* b1) &* Self.gammas[i]))
            h[2 * i + 1] = Self.reduce(Self.reduce(a0 &* b1) &+ Self.reduce(a1 &* b0))
        }
        return MLKEMPolynomial(coefficients: h)
    }

    // MARK: Sampling

    /// Algorithm 7: a uniform polynomial in the NTT domain from SHAKE128(`seed`) by rejection (public data).
    static func sampleNTT(_ seed: [UInt8]) throws -> MLKEMPolynomial {
        var length = 840
        while true {
            let stream = try NativeCrypto.shake128(seed, count: length)
            var result: [UInt32] = []
            result.reserveCapacity(degree)
            var offset = 0
            while result.count < degree, offset + 3 <= stream.count {
                let c0 = UInt32(stream[offset])
                let c1 = UInt32(stream[offset + 1])
                let c2 = UInt32(stream[offset + 2])
                let d1 = c0 | (c1 & 0x0F) << 8
                let d2 = c1 >> 4 | c2 << 4
                if d1 < q { result.append(d1) }
                if d2 < q, result.count < degree { result.append(d2) }
                offset += 3
            }
            if result.count == degree { return MLKEMPolynomial(coefficients: result) }
            length *= 2  // a longer squeeze of the same XOF extends the same stream
        }
    }

    /// Algorithm 8 with η = 2: a centered binomial polynomial from 128 bytes (secret data: bit operations only).
    static func sampleCBD2(_ bytes: [UInt8]) -> MLKEMPolynomial {
        precondition(bytes.count == 128)
        var f = [UInt32](repeating: 0, count: degree)
        for i in 0..<degree {
            // Coefficient i uses bits 4i … 4i+3: the nibble of byte i/2.
            let nibble = UInt32(bytes[i / 2] >> (4 * UInt8(i & 1))) & 0x0F
            let x = (nibble & 1) + (nibble >> 1 & 1)
            let y = (nibble >> 2 & 1) + (nibble >> 3 & 1)
            f[i] = subtractQIfAbove(x &+ q &- y)
        }
        return MLKEMPolynomial(coefficients: f)
    }

    // MARK: Compression and encoding

    /// Compress_d: round(2^d · x / q) mod 2^d, as ⌊(2^(d+1)·x + q) / 2q⌋ through an exact multiply-shift.
    @inline(__always)
    static func compress(_ x: UInt32, bits: Int) -> UInt32 {
        let numerator = UInt64(x) << (bits + 1) &+ UInt64(q)
        return UInt32(truncatingIfNeeded: (numerator &* 20_642_679) >> 37) & ((1 << UInt32(bits)) - 1)
    }

    /// Decompress_1 of a message bit: 0 or ⌈q/2⌉ = 1665.
    @inline(__always)
    static func decompressBit(_ bit: UInt32) -> UInt32 { bit &* 1665 }

    /// ByteEncode_d of `values` (each below 2^d): d bits each, least significant first.
    static func encode(_ values: [UInt32], bits: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: values.count * bits / 8)
        var accumulator: UInt64 = 0
        var filled = 0
        var position = 0
        for value in values {
            accumulator |= UInt64(value) << UInt64(filled)
            filled += bits
            while filled >= 8 {
                output[position] = UInt8(truncatingIfNeeded: accumulator)
                position += 1
                accumulator >>= 8
                filled -= 8
            }
        }
        return output
    }

    /// ByteDecode_12 of 384 bytes; `nil` when a value is not below q (FIPS 203's encapsulation-key check).
    static func decode12(_ bytes: ArraySlice<UInt8>) -> MLKEMPolynomial? {
        precondition(bytes.count == 384)
        var f = [UInt32](repeating: 0, count: degree)
        var valid = true
        for i in 0..<(degree / 2) {
            let b0 = UInt32(bytes[bytes.startIndex + 3 * i])
            let b1 = UInt32(bytes[bytes.startIndex + 3 * i + 1])
            let b2 = UInt32(bytes[bytes.startIndex + 3 * i + 2])
            f[2 * i] = b0 | (b1 & 0x0F) << 8
            f[2 * i + 1] = b1 >> 4 | b2 << 4
            valid = valid && f[2 * i] < q && f[2 * i + 1] < q
        }
        return valid ? MLKEMPolynomial(coefficients: f) : nil
    }
}
