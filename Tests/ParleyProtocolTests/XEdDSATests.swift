import Testing

@testable import ParleyProtocol

/// Known answers made with PyPI `xeddsa` (libxeddsa); see Scripts/vectors/make_xeddsa_vectors.py.
struct XEdDSAVectors: Decodable {
    struct Case: Decodable, CustomTestStringConvertible {
        let private_hex: String
        let public_hex: String
        let message_hex: String
        let nonce_hex: String
        let signature_hex: String
        var testDescription: String { "message of \(message_hex.count / 2) bytes" }
    }
    struct Invalid: Decodable, CustomTestStringConvertible {
        let public_hex: String
        let message_hex: String
        let signature_hex: String
        let reason: String
        var testDescription: String { reason }
    }
    let cases: [Case]
    let invalid: [Invalid]

    static let loaded = try! loadVectors("xeddsa_kat", as: XEdDSAVectors.self)
}

@Suite struct XEdDSATests {
    @Test(arguments: XEdDSAVectors.loaded.cases)
    func signatureMatchesLibxeddsaByteForByte(_ vector: XEdDSAVectors.Case) throws {
        let privateKey = try PrivateKey([UInt8](hex: vector.private_hex))
        #expect(privateKey.publicKey.keyBytes.hex == vector.public_hex)
        let signature = XEdDSA.sign(
            privateKey: Array(privateKey.serialize()), message: [UInt8](hex: vector.message_hex), random: [UInt8](hex: vector.nonce_hex))
        #expect(signature.hex == vector.signature_hex)
    }

    @Test(arguments: XEdDSAVectors.loaded.cases)
    func libxeddsaSignatureVerifies(_ vector: XEdDSAVectors.Case) throws {
        let publicKey = try PublicKey([0x05] + [UInt8](hex: vector.public_hex))
        #expect(try publicKey.verifySignature(message: [UInt8](hex: vector.message_hex), signature: [UInt8](hex: vector.signature_hex)))
    }

    @Test(arguments: XEdDSAVectors.loaded.invalid)
    func invalidSignatureIsRejected(_ vector: XEdDSAVectors.Invalid) {
        #expect(
            !XEdDSA.verify(
                signature: [UInt8](hex: vector.signature_hex), publicKey: [UInt8](hex: vector.public_hex),
                message: [UInt8](hex: vector.message_hex)))
    }

    @Test func freshSignaturesVerifyAndBindTheMessage() throws {
        let key = PrivateKey.generate()
        for length in [0, 1, 33, 1000] {
            let message = SecureRandom.bytes(length)
            let signature = key.generateSignature(message: message)
            #expect(signature.count == 64)
            #expect(try key.publicKey.verifySignature(message: message, signature: signature))
            #expect(try !key.publicKey.verifySignature(message: message + [0], signature: signature))
            #expect(try !PrivateKey.generate().publicKey.verifySignature(message: message, signature: signature))
        }
    }

    @Test func malformedSignaturesAreRejectedWithoutTrapping() throws {
        let key = PrivateKey.generate()
        let message: [UInt8] = [1, 2, 3]
        let good = key.generateSignature(message: message)
        for bad in [[], Array(good.prefix(63)), good + [0], [UInt8](repeating: 0, count: 64), [UInt8](repeating: 0xFF, count: 64)] {
            #expect(try !key.publicKey.verifySignature(message: message, signature: bad))
        }
    }
}
