import Crypto
import Foundation
import Testing

@testable import ParleyProtocol

/// Known answers from PyPI `kyber-py` (Scripts/vectors/make_mlkem768_vectors.py).
struct MLKEM768Vectors: Decodable {
    struct Case: Decodable { let seed, ek, m, shared_secret, ciphertext: String }
    let cases: [Case]
}

/// SPQR's two-step ML-KEM-768 encapsulation, checked two ways: byte for byte against kyber-py's deterministic
/// internals, and by swift-crypto's standard decapsulation opening ct1 ‖ ct2 to the secret step one promised.
@Suite struct IncrementalMLKEM768Tests {
    static let vectors = try! loadVectors("mlkem768_kat", as: MLKEM768Vectors.self)

    static func encapsulate(_ ek: [UInt8], message: [UInt8]? = nil) throws -> (secret: [UInt8], ciphertext: [UInt8]) {
        let step1 = try IncrementalMLKEM768.encapsulate1(
            rho: Array(ek[1152...]), encapsulationKeyHash: Array(SHA3_256.hash(data: ek)),
            message: message)
        let ct2 = try IncrementalMLKEM768.encapsulate2(step1.pending, encodedTHat: Array(ek[..<1152]))
        #expect(step1.ciphertext1.count == IncrementalMLKEM768.ciphertext1Length && ct2.count == IncrementalMLKEM768.ciphertext2Length)
        return (step1.sharedSecret, step1.ciphertext1 + ct2)
    }

    @Test func matchesKyberPyByteForByte() throws {
        for vector in Self.vectors.cases {
            let (secret, ciphertext) = try Self.encapsulate([UInt8](hex: vector.ek), message: [UInt8](hex: vector.m))
            #expect(secret.hex == vector.shared_secret)
            #expect(ciphertext.hex == vector.ciphertext)
            // The same key pair from the seed in swift-crypto opens it too.
            let seed = [UInt8](hex: vector.seed)
            let key = try MLKEM768.PrivateKey(seedRepresentation: seed, publicKey: nil)
            #expect(Array(key.publicKey.rawRepresentation).hex == vector.ek)
        }
    }

    @Test func swiftCryptoDecapsulatesToTheSecretOfStepOne() throws {
        for _ in 0..<2_000 {
            let key = try MLKEM768.PrivateKey()
            let (secret, ciphertext) = try Self.encapsulate(Array(key.publicKey.rawRepresentation))
            #expect(try key.decapsulate(ciphertext).withUnsafeBytes { Array($0) } == secret)
        }
    }

    @Test func keysWithCoefficientsNotBelowQAreRefused() throws {
        let key = try MLKEM768.PrivateKey()
        var ek = Array(key.publicKey.rawRepresentation)
        ek[0] = 0xFF
        ek[1] |= 0x0F  // the first coefficient becomes 4095
        let step1 = try IncrementalMLKEM768.encapsulate1(rho: Array(ek[1152...]), encapsulationKeyHash: Array(SHA3_256.hash(data: ek)))
        #expect(throws: SignalError.self) { try IncrementalMLKEM768.encapsulate2(step1.pending, encodedTHat: Array(ek[..<1152])) }
        #expect(throws: SignalError.self) { try IncrementalMLKEM768.encapsulate2(step1.pending, encodedTHat: Array(ek[..<100])) }
    }

    @Test func reductionAndCompressionAreExactEverywhereTheyAreUsed() {
        let q = MLKEMPolynomial.q
        var generator = SystemRandomNumberGenerator()
        let samples =
            Array(0..<UInt32(200_000)) + (0..<200_000).map { _ in UInt32.random(in: 0...UInt32.max, using: &generator) } + [UInt32.max]
        for x in samples { #expect(MLKEMPolynomial.reduce(x) == x % q) }
        for bits in [1, 4, 10, 11] {
            for x in 0..<q {
                // round(2^d·x/q) mod 2^d, with exact integer arithmetic.
                let exact = UInt32((UInt64(x) << UInt64(bits + 1) + UInt64(q)) / UInt64(2 * q)) & ((1 << UInt32(bits)) - 1)
                #expect(MLKEMPolynomial.compress(x, bits: bits) == exact)
            }
        }
    }

    @Test func theNTTMultipliesAsTheRingDoes() {
        var generator = SystemRandomNumberGenerator()
        let q = MLKEMPolynomial.q
        func random() -> MLKEMPolynomial {
            MLKEMPolynomial(coefficients: (0..<256).map { _ in UInt32.random(in: 0..<q, using: &generator) })
        }
        for _ in 0..<5 {
            let a = random()
            let b = random()
            #expect(a.ntt().inverseNTT() == a)
            // Schoolbook product in Z_q[X]/(X^256 + 1).
            var product = [UInt64](repeating: 0, count: 256)
            for i in 0..<256 {
                for j in 0..<256 {
                    let term = UInt64(a.coefficients[i]) * UInt64(b.coefficients[j]) % UInt64(q)
                    if i + j < 256 {
                        product[i + j] = (product[i + j] + term) % UInt64(q)
                    } else {
                        product[i + j - 256] = (product[i + j - 256] + UInt64(q) - term) % UInt64(q)
                    }
                }
            }
            #expect(a.ntt().multiplyNTT(b.ntt()).inverseNTT().coefficients == product.map { UInt32($0) })
        }
    }
}
