import Testing

@testable import ParleyProtocol

@Suite struct KeyTests {
    // RFC 7748 §6.1.
    let alicePrivate = [UInt8](hex: "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
    let alicePublic = [UInt8](hex: "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
    let bobPrivate = [UInt8](hex: "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")
    let bobPublic = [UInt8](hex: "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
    let shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"

    @Test func rfc7748KeyAgreement() throws {
        let alice = try PrivateKey(alicePrivate)
        let bob = try PrivateKey(bobPrivate)
        #expect(Array(alice.publicKey.serialize()) == [0x05] + alicePublic)
        #expect(Array(bob.publicKey.keyBytes) == bobPublic)
        #expect(try alice.keyAgreement(with: bob.publicKey).hex == shared)
        #expect(try bob.keyAgreement(with: alice.publicKey).hex == shared)
    }

    @Test func privateKeyIsStoredClamped() throws {
        let key = try PrivateKey([UInt8](repeating: 0xFF, count: 32))
        let bytes = key.serialize()
        #expect(bytes[0] & 7 == 0)
        #expect(bytes[31] & 0x80 == 0)
        #expect(bytes[31] & 0x40 == 0x40)
        #expect(try PrivateKey(bytes).publicKey == key.publicKey)
    }

    @Test func publicKeyParsingRejectsBadInput() {
        let good = PrivateKey.generate().publicKey.serialize()
        for bad: [UInt8] in [[], [0x05], Array(good.dropLast()), good + [0], [0x06] + Array(good.dropFirst()), Array(good.dropFirst())] {
            #expect(throws: SignalError.self) { try PublicKey(bad) }
        }
        #expect(throws: SignalError.self) { try PrivateKey([UInt8](repeating: 1, count: 31)) }
    }

    @Test func lowOrderPointIsRefusedInKeyAgreement() throws {
        let zero = try PublicKey([0x05] + [UInt8](repeating: 0, count: 32))
        #expect(throws: SignalError.self) { try PrivateKey.generate().keyAgreement(with: zero) }
    }

    @Test func identityKeyPairRoundTrips() throws {
        let pair = IdentityKeyPair.generate()
        let restored = try IdentityKeyPair(bytes: pair.serialize())
        #expect(restored.publicKey == pair.publicKey)
        #expect(restored.privateKey.serialize() == pair.privateKey.serialize())
        let other = IdentityKeyPair.generate()
        let signature = pair.signAlternateIdentity(other.identityKey)
        #expect(try pair.identityKey.verifyAlternateIdentity(other.identityKey, signature: signature))
        // libsignal's domain separation: the signature is not one over the bare key, nor valid for another identity.
        #expect(try !pair.publicKey.verifySignature(message: other.identityKey.serialize(), signature: signature))
        #expect(try !pair.identityKey.verifyAlternateIdentity(IdentityKeyPair.generate().identityKey, signature: signature))
    }

    @Test func identityKeyPairWithMismatchedHalvesIsRejected() throws {
        var structure = Parley_Storage_IdentityKeyPairStructure()
        structure.publicKey = .init(IdentityKeyPair.generate().publicKey.serialize())
        structure.privateKey = .init(PrivateKey.generate().serialize())
        #expect(throws: SignalError.self) { try IdentityKeyPair(bytes: try structure.serializedBytes() as [UInt8]) }
        #expect(throws: SignalError.self) { try IdentityKeyPair(bytes: [0xFF, 0xFF, 0xFF]) }
    }

    @Test func recordsRoundTrip() throws {
        let identity = PrivateKey.generate()
        let preKey = PreKeyRecord.generate(id: 7)
        let restoredPreKey = try PreKeyRecord(bytes: preKey.serialize())
        #expect(restoredPreKey.id == 7)
        #expect(try restoredPreKey.publicKey() == (try preKey.publicKey()))

        let signed = SignedPreKeyRecord.generate(id: 3, timestamp: 42, signedBy: identity)
        let restoredSigned = try SignedPreKeyRecord(bytes: signed.serialize())
        #expect(restoredSigned.id == 3 && restoredSigned.timestamp == 42 && restoredSigned.signature == signed.signature)
        #expect(try identity.publicKey.verifySignature(message: try signed.publicKey().serialize(), signature: signed.signature))

        let kyber = KyberPreKeyRecord.generate(id: 9, timestamp: 5, signedBy: identity)
        let restoredKyber = try KyberPreKeyRecord(bytes: kyber.serialize())
        #expect(try restoredKyber.publicKey() == (try kyber.publicKey()) && restoredKyber.signature == kyber.signature)
        #expect(try identity.publicKey.verifySignature(message: try kyber.publicKey().serialize(), signature: kyber.signature))
        #expect(try kyber.publicKey().keyType == .kyber1024)
    }
}
