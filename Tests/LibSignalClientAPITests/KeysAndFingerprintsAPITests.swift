import Foundation
import ParleyProtocol
import Testing

/// Keys, signatures, KEM keys, HKDF and safety numbers through LibSignalClient's API.
@Suite struct KeysAndFingerprintsAPITests {
    @Test func keysSerializeToDataAndSign() throws {
        let privateKey = PrivateKey.generate()
        let publicKey = privateKey.publicKey
        #expect(publicKey.serialize().count == 33 && publicKey.keyBytes.count == 32)
        #expect(try PublicKey(publicKey.serialize()) == publicKey)
        #expect(try PrivateKey(privateKey.serialize()).publicKey == publicKey)
        let signature: Data = privateKey.generateSignature(message: Data("m".utf8))
        #expect(try publicKey.verifySignature(message: Data("m".utf8), signature: signature))
        #expect(try !publicKey.verifySignature(message: Data("n".utf8), signature: signature))
        let other = PrivateKey.generate()
        #expect(try privateKey.keyAgreement(with: other.publicKey) == other.keyAgreement(with: publicKey))

        let pair = IdentityKeyPair.generate()
        #expect(try IdentityKeyPair(bytes: pair.serialize()).publicKey == pair.publicKey)
        #expect(try IdentityKey(bytes: pair.identityKey.serialize()) == pair.identityKey)
        let pni = IdentityKeyPair.generate()
        let vouch = pair.signAlternateIdentity(pni.identityKey)
        #expect(try pair.identityKey.verifyAlternateIdentity(pni.identityKey, signature: vouch))
        #expect(try !pni.identityKey.verifyAlternateIdentity(pair.identityKey, signature: vouch))

        let kem = KEMKeyPair.generate()
        #expect(try KEMPublicKey(kem.publicKey.serialize()) == kem.publicKey)
        #expect(try KEMSecretKey(kem.secretKey.serialize()).serialize() == kem.secretKey.serialize())
    }

    @Test func hkdfMatchesRFC5869TestCase1() throws {
        let okm = try hkdf(
            outputLength: 42, inputKeyMaterial: Data(repeating: 0x0b, count: 22),
            salt: Data((0x00...0x0c).map { UInt8($0) }), info: Data((0xf0...0xf9).map { UInt8($0) }))
        #expect(
            okm.map { String(format: "%02x", $0) }.joined()
                == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
        #expect(throws: SignalError.self) { try hkdf(outputLength: 255 * 32 + 1, inputKeyMaterial: Data([1]), salt: Data(), info: Data()) }
    }

    @Test func safetyNumbersMatchAndScansCompare() throws {
        let alice = IdentityKeyPair.generate()
        let bob = IdentityKeyPair.generate()
        let aliceAci = Aci(fromUUID: UUID())
        let bobAci = Aci(fromUUID: UUID())
        let generator = NumericFingerprintGenerator(iterations: 5200)
        let mine = try generator.create(
            version: 2, localIdentifier: aliceAci.serviceIdBinary, localKey: alice.publicKey,
            remoteIdentifier: bobAci.serviceIdBinary, remoteKey: bob.publicKey)
        let theirs = try generator.create(
            version: 2, localIdentifier: bobAci.serviceIdBinary, localKey: bob.publicKey,
            remoteIdentifier: aliceAci.serviceIdBinary, remoteKey: alice.publicKey)
        #expect(mine.displayable.formatted == theirs.displayable.formatted && mine.displayable.formatted.count == 60)
        #expect(try mine.scannable.compare(againstEncoding: theirs.scannable.encoding))
        let stranger = try generator.create(
            version: 2, localIdentifier: bobAci.serviceIdBinary, localKey: IdentityKeyPair.generate().publicKey,
            remoteIdentifier: aliceAci.serviceIdBinary, remoteKey: alice.publicKey)
        #expect(try !mine.scannable.compare(againstEncoding: stranger.scannable.encoding))
        let older = try generator.create(
            version: 1, localIdentifier: bobAci.serviceIdBinary, localKey: bob.publicKey,
            remoteIdentifier: aliceAci.serviceIdBinary, remoteKey: alice.publicKey)
        #expect { try mine.scannable.compare(againstEncoding: older.scannable.encoding) } throws: { error in
            if case SignalError.fingerprintVersionMismatch(theirs: 1, ours: 2) = error { true } else { false }
        }
    }
}
