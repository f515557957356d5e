import Crypto

/// ML-KEM-768 encapsulation in two steps, as SPQR needs it (FIPS 203 Algorithms 14 and 17, split): ``encapsulate1``
/// needs only ρ and the hash of the encapsulation key — the first 96 bytes SPQR sends — and yields the shared
/// secret and the ciphertext's first part (`u`, 960 bytes); ``encapsulate2`` finishes the ciphertext (`v`, 128
/// bytes) once the key's body t̂ has arrived. `ct1 ‖ ct2` is an ordinary ML-KEM-768 ciphertext: any standard
/// decapsulation (swift-crypto's `MLKEM768`) opens it. Key generation and decapsulation are swift-crypto's.
///
/// Constant time in every secret (m, r, y, e1, e2 and what derives from them): see ``MLKEMPolynomial``.
enum IncrementalMLKEM768 {
    static let k = 3
    /// Bytes of t̂ (ByteEncode12 of three polynomials).
    static let encodedTHatLength = 1152
    /// Bytes of a full encapsulation key (t̂ ‖ ρ).
    static let encapsulationKeyLength = 1184
    static let ciphertext1Length = 960
    static let ciphertext2Length = 128

    /// What ``encapsulate2`` needs from ``encapsulate1``: secret; keep it only until the second step.
    struct PendingEncapsulation: Sendable {
        let yHat: [MLKEMPolynomial]
        let e2: MLKEMPolynomial
        let mu: MLKEMPolynomial
    }

    /// The first step: `(K, r) = G(m ‖ H(ek))` with a fresh random m (or `message`, for known-answer tests), then
    /// `u = NTT⁻¹(Âᵀ ∘ ŷ) + e1` from ρ alone.
    ///
    /// - Returns: the shared secret K (32 bytes), ct1 = ByteEncode10(Compress10(u)), and the state for step two.
    static func encapsulate1(rho: [UInt8], encapsulationKeyHash: [UInt8], message: [UInt8]? = nil) throws
        -> (sharedSecret: [UInt8], ciphertext1: [UInt8], pending: PendingEncapsulation)
    {
        precondition(rho.count == 32 && encapsulationKeyHash.count == 32)
        let m = message ?? SecureRandom.bytes(32)
        precondition(m.count == 32)
        let g = Array(SHA3_512.hash(data: m + encapsulationKeyHash))
        let sharedSecret = Array(g[0..<32])
        let r = Array(g[32..<64])

        var counter: UInt8 = 0
        func noise() throws -> MLKEMPolynomial {
            defer { counter += 1 }
            return MLKEMPolynomial.sampleCBD2(try NativeCrypto.shake256(r + [counter], count: 128))
        }
        let y = try (0..<k).map { _ in try noise() }
        let e1 = try (0..<k).map { _ in try noise() }
        let e2 = try noise()
        let yHat = y.map { $0.ntt() }
        // Â[i][j] = SampleNTT(ρ ‖ j ‖ i); u[i] = Σ_j Â[j][i] ∘ ŷ[j].
        var u: [MLKEMPolynomial] = []
        for i in 0..<k {
            var sum = MLKEMPolynomial.zero
            for j in 0..<k {
                let a = try MLKEMPolynomial.sampleNTT(rho + [UInt8(i), UInt8(j)])
                sum = sum + a.multiplyNTT(yHat[j])
            }
            u.append(sum.inverseNTT() + e1[i])
        }
        let ciphertext1 = u.flatMap { polynomial in
            MLKEMPolynomial.encode(polynomial.coefficients.map { MLKEMPolynomial.compress($0, bits: 10) }, bits: 10)
        }
        // μ = Decompress1(ByteDecode1(m)).
        let mu = MLKEMPolynomial(coefficients: (0..<256).map { MLKEMPolynomial.decompressBit(UInt32(m[$0 / 8] >> UInt8($0 % 8)) & 1) })
        return (sharedSecret, ciphertext1, PendingEncapsulation(yHat: yHat, e2: e2, mu: mu))
    }

    /// Whether `encodedTHat` is 1152 bytes of 12-bit values all below q (FIPS 203's encapsulation-key check; public data).
    static func isValidEncodedTHat(_ encodedTHat: [UInt8]) -> Bool {
        encodedTHat.count == encodedTHatLength
            && (0..<k).allSatisfy { MLKEMPolynomial.decode12(encodedTHat[(384 * $0)..<(384 * ($0 + 1))]) != nil }
    }

    /// The second step: `v = NTT⁻¹(t̂ᵀ ∘ ŷ) + e2 + μ` once the key's body `encodedTHat` (1152 bytes) is known.
    ///
    /// - Returns: ct2 = ByteEncode4(Compress4(v)), 128 bytes.
    /// - Throws: ``SignalError/invalidKey(_:)`` for a t̂ whose coefficients are not all below q (FIPS 203's check).
    static func encapsulate2(_ pending: PendingEncapsulation, encodedTHat: [UInt8]) throws -> [UInt8] {
        guard encodedTHat.count == encodedTHatLength else { throw SignalError.invalidKey("t̂ is \(encodedTHatLength) bytes") }
        var sum = MLKEMPolynomial.zero
        for i in 0..<k {
            guard let tHat = MLKEMPolynomial.decode12(encodedTHat[(384 * i)..<(384 * (i + 1))]) else {
                throw SignalError.invalidKey("an encapsulation key coefficient is not below q")
            }
            sum = sum + tHat.multiplyNTT(pending.yHat[i])
        }
        let v = sum.inverseNTT() + pending.e2 + pending.mu
        return MLKEMPolynomial.encode(v.coefficients.map { MLKEMPolynomial.compress($0, bits: 4) }, bits: 4)
    }
}
