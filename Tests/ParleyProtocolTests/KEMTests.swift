import Testing

@testable import ParleyProtocol

/// Known answers made with PyPI `kyber-py`; see Scripts/vectors/make_kem_vectors.py.
struct KEMVectors: Decodable {
    struct Case: Decodable, CustomTestStringConvertible {
        let type: String
        let seed_hex: String
        let public_key_hex: String
        let ciphertext_hex: String
        let shared_secret_hex: String
        var testDescription: String { "\(type) \(seed_hex.prefix(8))" }
        var keyType: KEMKeyType { KEMKeyType.allCases.first { $0.name == type }! }
    }
    let cases: [Case]

    static let loaded = try! loadVectors("kem_kat", as: KEMVectors.self)
}

@Suite struct KEMTests {
    @Test(arguments: KEMVectors.loaded.cases)
    func keyFromSeedMatchesReference(_ vector: KEMVectors.Case) throws {
        let secret = try KEMSecretKey([vector.keyType.rawValue] + [UInt8](hex: vector.seed_hex))
        #expect(Array(secret.publicKey.serialize()) == [vector.keyType.rawValue] + [UInt8](hex: vector.public_key_hex))
    }

    @Test(arguments: KEMVectors.loaded.cases)
    func decapsulatesReferenceCiphertext(_ vector: KEMVectors.Case) throws {
        let secret = try KEMSecretKey([vector.keyType.rawValue] + [UInt8](hex: vector.seed_hex))
        let shared = try secret.decapsulate([vector.keyType.rawValue] + [UInt8](hex: vector.ciphertext_hex))
        #expect(shared.hex == vector.shared_secret_hex)
    }

    @Test(arguments: KEMKeyType.allCases)
    func encapsulationRoundTrips(_ type: KEMKeyType) throws {
        let pair = KEMKeyPair.generate(type: type)
        let (shared, ciphertext) = try pair.publicKey.encapsulate()
        #expect(ciphertext.count == 1 + KEMKeyType.ciphertextLength)
        #expect(ciphertext.first == type.rawValue)
        #expect(try pair.secretKey.decapsulate(ciphertext) == shared)
        #expect(pair.publicKey.serialize().count == 1569)
    }

    @Test func serializedKeysRoundTrip() throws {
        let pair = KEMKeyPair.generate()
        #expect(try KEMPublicKey(pair.publicKey.serialize()) == pair.publicKey)
        #expect(try KEMSecretKey(pair.secretKey.serialize()).publicKey == pair.publicKey)
    }

    @Test func malformedKeysGiveTypedErrors() throws {
        let good = KEMKeyPair.generate().publicKey.serialize()
        #expect(throws: SignalError.self) { try KEMPublicKey([UInt8]()) }
        #expect(throws: SignalError.self) { try KEMPublicKey([0x09] + good.dropFirst()) }
        #expect(throws: SignalError.self) { try KEMPublicKey(Array(good.dropLast())) }
        #expect(throws: SignalError.self) { try KEMPublicKey(good + [0]) }
        #expect(throws: SignalError.self) { try KEMPublicKey([0x08] + [UInt8](repeating: 0xFF, count: 1568)) }
        #expect(throws: SignalError.self) { try KEMSecretKey([0x08] + [UInt8](repeating: 1, count: 63)) }
        let secret = KEMKeyPair.generate(type: .kyber1024).secretKey
        #expect(throws: SignalError.self) { try secret.decapsulate([0x0A] + [UInt8](repeating: 0, count: 1568)) }
        #expect(throws: SignalError.self) { try secret.decapsulate([0x08] + [UInt8](repeating: 0, count: 100)) }
    }

    @Test func kyberAndMLKEMSecretsDifferForTheSameCiphertext() throws {
        let vector = KEMVectors.loaded.cases.first { $0.type == "kyber1024" }!
        let seed = [UInt8](hex: vector.seed_hex)
        let ciphertext = [UInt8](hex: vector.ciphertext_hex)
        let kyber = try KEMSecretKey([0x08] + seed).decapsulate([0x08] + ciphertext)
        let mlkem = try KEMSecretKey([0x0A] + seed).decapsulate([0x0A] + ciphertext)
        #expect(kyber != mlkem)
    }
}
