import Crypto
import Testing

@testable import ParleyProtocol

/// The constructions Parley composes over vetted digests, against their RFC test vectors.
@Suite struct PrimitiveTests {
    @Test func hmacSHA256MatchesRFC4231() {
        #expect(
            KDF.hmacSHA256(key: [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8)).hex
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        let longKey = [UInt8](repeating: 0xaa, count: 131)
        #expect(
            KDF.hmacSHA256(key: longKey, Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)).hex
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func hkdfSHA256MatchesRFC5869() {
        let ikm = [UInt8](repeating: 0x0b, count: 22)
        let okm = NativeCrypto.hkdfSHA256(
            inputKeyMaterial: ikm, salt: Array(0x00...0x0c), info: Array(0xf0...0xf9), count: 42)
        #expect(okm.hex == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
        #expect(
            KDF.hkdf(inputKeyMaterial: ikm, info: "", count: 42).hex
                == "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")
    }

    @Test func hkdfAgreesWithSwiftCrypto() {
        for length in [1, 32, 64, 80, 96, 200] {
            let ikm = SecureRandom.bytes(length)
            let salt = SecureRandom.bytes(32)
            let ours = KDF.hkdf(inputKeyMaterial: ikm, salt: salt, info: "WhisperMessageKeys", count: length)
            let theirs = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: ikm), salt: salt, info: Array("WhisperMessageKeys".utf8), outputByteCount: length)
            #expect(ours == theirs.withUnsafeBytes { Array($0) })
        }
    }

    @Test func iteratedSHA512AgreesWithSwiftCrypto() {
        let initial = SecureRandom.bytes(50)
        let suffix = SecureRandom.bytes(33)
        var expected = Array(SHA512.hash(data: initial + suffix))
        for _ in 1..<7 { expected = Array(SHA512.hash(data: expected + suffix)) }
        #expect(NativeCrypto.sha512Iterated(initial: initial, suffix: suffix, iterations: 7) == expected)
    }

    @Test func shake256MatchesFIPS202() throws {
        #expect(try NativeCrypto.shake256([], count: 32).hex == "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f")
    }

    @Test func constantTimeEquality() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
    }
}
