import Foundation
import Testing

@testable import ParleyProtocol

/// zkgroup's group secrets, member and profile-key encryption and blobs, byte for byte with libsignal v0.101: the
/// vectors of its `ZKGroupTests.swift`, its Rust unit tests (poksho's SHO, `uid_encryption.rs`,
/// `profile_key_encryption.rs`, `group_params.rs`) and curve25519-dalek's lizard tests, and the ciphertexts embedded in
/// its `AUTH_CREDENTIAL_PRESENTATION_V4_RESULT` and `PROFILE_KEY_CREDENTIAL_PRESENTATION_V4_RESULT`.
@Suite struct ZKGroupTests {
    static let testArray16 = UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
    static let testArray16_1 = UUID(
        uuid: (0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x6B, 0x6C, 0x6D, 0x6E, 0x6F, 0x70, 0x71, 0x72, 0x73))
    static let testArray32 = [UInt8](0..<32)
    static let testArray32_1 = [UInt8](100..<132)
    static let testArray32_2 = Randomness(
        (
            0xC8, 0xC9, 0xCA, 0xCB, 0xCC, 0xCD, 0xCE, 0xCF, 0xD0, 0xD1, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7,
            0xD8, 0xD9, 0xDA, 0xDB, 0xDC, 0xDD, 0xDE, 0xDF, 0xE0, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7
        ))
    static let zeroRandomness = Randomness((0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    static func group() throws -> GroupSecretParams {
        try GroupSecretParams.deriveFromMasterKey(groupMasterKey: GroupMasterKey(contents: Data(testArray32_1)))
    }

    // MARK: Building blocks

    @Test func theStatefulHashObjectMatchesPoksho() {
        var sho = ShoHmacSha256(label: "asd")
        sho.absorbAndRatchet(Array("asdasd".utf8))
        var copy = sho
        #expect(
            sho.squeezeAndRatchet(64).hex
                == "392cb9449373037fa0c11aebed69cca3b7d3bc9790878f341729c65d5506442f04986cb5c9098f277c3ea640a4dc6e90372b433a90af9aea7072eaba3398c4fe"
        )
        #expect(copy.squeezeAndRatchet(65).hex.hasSuffix("c4fe7a"))

        var long = ShoHmacSha256(label: "")
        long.absorbAndRatchet(Array("abc".utf8))
        for count in [63, 64, 65, 127, 128, 129] { long.absorbAndRatchet([UInt8](repeating: 0, count: count)) }
        for count in [63, 64, 65, 127, 128, 129] { _ = long.squeezeAndRatchet(count) }
        long.absorbAndRatchet(Array("def".utf8))
        #expect(
            long.squeezeAndRatchet(63).hex
                == "c5c13bcc6596c25fc4514eac9269dd6e3e57ef70f4bfb8d67fd3082ed9732d7790d8d2686f19eb2533a65c94bb8ceda0a068e1b615c81bb26e411889da9fb7"
        )
    }

    @Test func theEncryptionGeneratorsAreLibsignalsConstants() {
        #expect(ZKGroupGenerators.serviceId.0.bytes.hex == "a6324c368df734691147981348b6e7eb42c3307e711b6c7eccd3032d45693f5a")
        #expect(ZKGroupGenerators.serviceId.1.bytes.hex == "048013525b76124bf2640c5e9369c76efbe80aba2a24aa5d8e18a98eba14f837")
        #expect(ZKGroupGenerators.profileKey.0.bytes.hex == "f6baa317ce1839c93d617e0cd837d19da9c8a4c520bf7c51b1e6c2cb2a049c61")
        #expect(ZKGroupGenerators.profileKey.1.bytes.hex == "2e0175894c8730b203ab3bd98ecb2d81abacb65f8a6124f49771d14a9852120c")
        #expect(RistrettoPoint.generator.bytes.hex == "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76")
    }

    @Test(arguments: [
        ([UInt8](0..<16), "c830573f8a8e7778671f76cdc796dc0a235cf177f197d9fcba06e84e96247444"),
        ([UInt8](repeating: 0, count: 16), "f0b7e34484f74cf00f15024b738539738646bbbe1e9bc7509a676815227e774f"),
        ([UInt8](repeating: 1, count: 16), "cc92e81f585afc5caac88660d8d17e9025a44489a363042123f6af0702156e65"),
        ([UInt8](repeating: 0xdd, count: 16), "ccb60554c081841037f821fa827b6a5bc2531f80e2647f1a858611f4ccfe3056"),
    ])
    func lizardEncodesAsDalekAndDecodesBack(message: [UInt8], point: String) {
        let encoded = Lizard.encode(message)
        #expect(encoded.bytes.hex == point)
        #expect(Lizard.decode(encoded) == message)
    }

    @Test func aPointThatEncodesNothingDecodesToNothing() {
        var generator = SystemRandomNumberGenerator()
        var decoded = 0
        for _ in 0..<50 {
            let point = RistrettoPoint.fromHash((0..<64).map { _ in UInt8.random(in: 0...255, using: &generator) })
            if Lizard.decode(point) != nil { decoded += 1 }
        }
        #expect(decoded == 0)
        #expect(Lizard.decode(RistrettoPoint.identity) == nil)
    }

    @Test func scalarsAndPointsAreReadOnlyInCanonicalForm() {
        let order = [UInt8](hex: "edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")
        #expect(RistrettoScalar(canonical: order) == nil)
        var belowOrder = order
        belowOrder[0] -= 1
        #expect(RistrettoScalar(canonical: belowOrder) != nil)
        #expect(RistrettoScalar(canonical: [UInt8](repeating: 0xff, count: 32)) == nil)
        #expect(RistrettoScalar(canonical: [UInt8](repeating: 0, count: 31)) == nil)
        #expect(RistrettoPoint(encoding: [UInt8](repeating: 0xff, count: 32)) == nil)
        #expect(RistrettoPoint(encoding: RistrettoPoint.generator.bytes) != nil)
        #expect(RistrettoPoint(encoding: [UInt8](repeating: 0, count: 32)) == RistrettoPoint.identity)
    }

    @Test func theAttributeEncryptionMatchesLibsignalsUnitTests() {
        var uidSho = ShoHmacSha256(label: "Test_Uid_Encryption", data: Self.testArray32)
        let uidKeys = ZKGroupEncryptionKeyPair(deriving: &uidSho, g1: ZKGroupGenerators.serviceId.0, g2: ZKGroupGenerators.serviceId.1)
        let aci = Aci(fromUUID: Self.testArray16)
        let (e1, e2) = uidKeys.encrypt(m1: ServiceIdPoints.m1(aci), m2: ServiceIdPoints.m2(aci))
        #expect(
            (e1.bytes + e2.bytes).hex
                == "f89ee7705a66036b908db884211b773ac543ee35c4a3086220fc3e1e35b4234cfa1d2eea2cc2f4b4c42cff39a9dceb57293b5f8770ca60f9e9b74447bfd3bd3d"
        )

        var keySho = ShoHmacSha256(label: "Test_Profile_Key_Encryption", data: Self.testArray32_1)
        let profileKeys = ZKGroupEncryptionKeyPair(
            deriving: &keySho, g1: ZKGroupGenerators.profileKey.0, g2: ZKGroupGenerators.profileKey.1)
        let uuid = [UInt8](Aci(fromUUID: Self.testArray16_1).serviceIdBinary)
        let (p1, p2) = profileKeys.encrypt(
            m1: ProfileKeyPoints.m3(Self.testArray32_1, aciUUID: uuid), m2: ProfileKeyPoints.m4(Self.testArray32_1))
        #expect(
            (p1.bytes + p2.bytes).hex
                == "5618cb4c7d721e012b22f077ef1264f6b143bb597a1d665a70aa84245f246d20badb97474a56f4b5361aeca9d118b7004e140971990aab2af2432d3f8f7d213a"
        )
    }

    // MARK: LibSignalClient's API

    @Test func groupIdStringConversion() throws {
        let groupId = try Self.group().getPublicParams().getGroupIdentifier()
        #expect("\(groupId)" == "84e256730548f8ba09069b223eccc133f599f9827edc7084f8921e4a70cd9e4c")
    }

    @Test func groupParamsSerializeAsLibsignalsAndReadBack() throws {
        let secret = try Self.group()
        let expected =
            "006465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f8081828384e256730548f8ba09069b223eccc133f599f9827edc7084f8921e4a70cd9e"
            + "4c94b0466e6fbcace9aae8b5bc1dfd941a7e2478696d32d2d685007276fac9a9ead5be9fd6ed09160b6d6b24bb3e64b2fcb6bba9cb80d3fa66e5093f3e6e1e11"
            + "0c943401f91518e83d37f8fbd271ffaadbd095e347fc40853aa5efde6c745b3f07d8c075c601cb280cc4f2c9c52c075fc5336c63fe27b935db3bcce18e01c908"
            + "338977bfd07545538e47361be67d99ce7019655f23e1814a2a7bd880d8773ad604a0b0dc3d64fec27a274e89c1d1bc33928874c58ad9ce4e9c923a043fa6967d"
            + "0fce1b7ad669a5db8b4addef7862f7ffbaab050226fd7cd776758a17fc95999c56"
        #expect([UInt8](secret.serialize()).hex == expected)
        #expect(try GroupSecretParams(contents: secret.serialize()).serialize() == secret.serialize())
        #expect(try secret.getMasterKey().serialize() == Data(Self.testArray32_1))
        let publicParams = try secret.getPublicParams()
        #expect(
            [UInt8](publicParams.serialize()).hex
                == "0084e256730548f8ba09069b223eccc133f599f9827edc7084f8921e4a70cd9e4cd8c075c601cb280cc4f2c9c52c075fc5336c63fe27b935db3bcce18e01c908"
                + "33ce1b7ad669a5db8b4addef7862f7ffbaab050226fd7cd776758a17fc95999c56")
        #expect(try GroupPublicParams(contents: publicParams.serialize()).serialize() == publicParams.serialize())
        let generated = try GroupSecretParams.generate(
            randomness: Randomness(
                (
                    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
                )))
        #expect([UInt8](try generated.getMasterKey().serialize()).hex == "79e55504e8f4a0617532df3edbf954a5c86cd29de2492f8bdebeac54f94d93ca")
    }

    @Test func serviceIdsEncryptAsInLibsignalsPresentationsAndDecryptBack() throws {
        let cipher = ClientZkGroupCipher(groupSecretParams: try Self.group())
        let aci = Aci(fromUUID: Self.testArray16)
        let pni = Pni(fromUUID: Self.testArray16_1)
        let aciCiphertext = try cipher.encrypt(aci)
        #expect(
            [UInt8](aciCiphertext.serialize()).hex
                == "00765de9df4cfa5487f360e29e99343e91811baec331c4680985e608ca5d408e21725c6aa1b61d5a8b48d75f4aaa9a3cbe88d3e0f1a54319081f77c72c8f525474"
        )
        let pniCiphertext = try cipher.encrypt(pni)
        #expect(
            [UInt8](pniCiphertext.serialize()).hex
                == "00de749a0fef17b06bbce74ca5d0f7a0c45f443a1901f1e3e016d3548e50a2fa19ce6b27ac467ed9c9f5018b2a4456b6c2b1a91454422fdd473c9636a8459e1c17"
        )
        #expect(
            try cipher.decrypt(UuidCiphertext(contents: aciCiphertext.serialize())).serviceIdFixedWidthBinary
                == aci.serviceIdFixedWidthBinary)
        #expect(try cipher.decrypt(pniCiphertext).serviceIdFixedWidthBinary == pni.serviceIdFixedWidthBinary)
        #expect(try cipher.decrypt(pniCiphertext).kind == .pni)
        // Deterministic: the same member, the same ciphertext.
        #expect(try cipher.encrypt(aci).serialize() == aciCiphertext.serialize())
    }

    @Test func manyServiceIdsRoundTrip() throws {
        let cipher = ClientZkGroupCipher(groupSecretParams: try GroupSecretParams.generate())
        for index in 0..<40 {
            let id: ServiceId = index % 2 == 0 ? Aci(fromUUID: UUID()) : Pni(fromUUID: UUID())
            #expect(try cipher.decrypt(cipher.encrypt(id)).serviceIdFixedWidthBinary == id.serviceIdFixedWidthBinary)
        }
    }

    @Test func profileKeysEncryptAsInLibsignalsPresentationAndDecryptBack() throws {
        let cipher = ClientZkGroupCipher(groupSecretParams: try Self.group())
        let aci = Aci(fromUUID: Self.testArray16)
        let key = try ProfileKey(contents: Data(Self.testArray32_1))
        let ciphertext = try cipher.encryptProfileKey(profileKey: key, userId: aci)
        #expect(
            [UInt8](ciphertext.serialize()).hex
                == "0048c03ab4afbf6b8fb0e126c037a0ad4094600dd0e0634d76f88c21087f3cfb485a89bc1e3abc4c95041d1d170eccf02933ec5393d4be1dc573f83c33d3b9a746"
        )
        #expect(try cipher.decryptProfileKey(profileKeyCiphertext: ciphertext, userId: aci).serialize() == key.serialize())
        // Bound to its owner: under another ACI it does not decrypt.
        #expect(throws: SignalError.self) {
            try cipher.decryptProfileKey(profileKeyCiphertext: ciphertext, userId: Aci(fromUUID: Self.testArray16_1))
        }
        for _ in 0..<10 {
            let random = try ProfileKey(contents: Data((0..<32).map { _ in UInt8.random(in: 0...255) }))
            let owner = Aci(fromUUID: UUID())
            #expect(
                try cipher.decryptProfileKey(
                    profileKeyCiphertext: cipher.encryptProfileKey(profileKey: random, userId: owner), userId: owner
                )
                .serialize() == random.serialize())
        }
    }

    @Test func blobsEncryptAsLibsignalsAndPaddedOnesDecrypt() throws {
        let cipher = ClientZkGroupCipher(groupSecretParams: try Self.group())
        let plaintext = Data([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19])
        let ciphertext = try cipher.encryptBlob(randomness: Self.testArray32_2, plaintext: plaintext)
        #expect(
            [UInt8](ciphertext).hex
                == "dd4d032ca9bb75a4a78541b90cb4e95743f3b0dabfc7e11101b098e34f6cf6513940a04c1f20a302692afdc7087f10196000")
        #expect(try cipher.decryptBlob(blobCiphertext: ciphertext) == plaintext)
        let padded = Data(
            [UInt8](
                hex:
                    "5cb5b7bff06e85d929f3511fd194e638cf32a47663868bc8e64d98fb1bbe435ebd21c763ce2d42e85a1b2c169f12f9818ddadcf4b491398b7c5d46a224e1582749f5e2a4a2294caaaaab843a1b7cf6426fd543d09ff32a4ba5f319ca4442b4da34b3e2b5b4f8a52fdc4b484ea86b33db3ebb758dbd9614178f0e4e1f9b2b914f1e786936b62ed2b58b7ae3cb3e7ae0835b9516959837406662b85eac740cef83b60b5aaeaaab95643c2bef8ce87358fabff9d690052beb9e52d0c947e7c986b2f3ce3b7161cec72c08e2c4ade3debe3792d736c0457bc352afb8b6caa48a5b92c1ec05ba808ba8f94c6572ebbf29818912344987573de419dbcc7f1ea0e4b2dd4077b76b381819747ac332e46fa23abfc3338e2f4b081a8a53cba0988eef116764d944f1ce3f20a302692afdc7087f10196000"
            ))
        #expect(try cipher.decryptBlob(blobCiphertext: padded) == plaintext)
        #expect(try cipher.encryptBlobWithPadding(randomness: Self.testArray32_2, plaintext: plaintext, paddingLength: 257) == padded)

        let zeroGroup = ClientZkGroupCipher(groupSecretParams: try GroupSecretParams.generate(randomness: Self.zeroRandomness))
        let team = Data("secret team".utf8)
        #expect(
            [UInt8](try zeroGroup.encryptBlob(randomness: Self.zeroRandomness, plaintext: team)).hex
                == "3798afe9c65ffb35a63b2c048b16f19dd50ee9acc33cc925667a9abad4d4c6f86675fa8e32243e0831203700")
        #expect(
            [UInt8](try zeroGroup.encryptBlobWithPadding(randomness: Self.zeroRandomness, plaintext: team, paddingLength: 8)).hex
                == "880a70e071b33f81e1219842c8514f34901abb734c191292ac325455d898da000484080099c620f86675fa8e32243e0831203700")
        #expect(try cipher.decryptBlob(blobCiphertext: cipher.encryptBlob(plaintext: team)) == team)
    }

    @Test func theAccessKeyIsLibsignals() throws {
        #expect(
            [UInt8](try ProfileKey(contents: Data(repeating: 2, count: 32)).deriveAccessKey()).hex == "5a723acee52c5ea02b92a3a360c09595")
    }

    // MARK: Refusals

    @Test func malformedBytesAreRefusedWithTypedErrors() throws {
        #expect(throws: SignalError.invalidType("GroupMasterKey uses 32 bytes, but tried to deserialize from an array of 31 bytes")) {
            try GroupMasterKey(contents: Data(count: 31))
        }
        #expect(throws: SignalError.self) { try ProfileKey(contents: Data(count: 33)) }
        let secret = [UInt8](try Self.group().serialize())
        var reserved = secret
        reserved[0] = 1
        #expect(throws: SignalError.self) { try GroupSecretParams(contents: Data(reserved)) }
        var bigScalar = secret
        bigScalar.replaceSubrange(97..<129, with: [UInt8](repeating: 0xff, count: 32))
        #expect(throws: SignalError.self) { try GroupSecretParams(contents: Data(bigScalar)) }
        var badPoint = secret
        badPoint.replaceSubrange(161..<193, with: [UInt8](repeating: 0xff, count: 32))
        #expect(throws: SignalError.self) { try GroupSecretParams(contents: Data(badPoint)) }
        #expect(throws: SignalError.self) { try GroupSecretParams(contents: Data(secret.dropLast())) }
        #expect(throws: SignalError.self) { try GroupPublicParams(contents: Data(count: 97) + Data([0])) }
        #expect(throws: SignalError.self) { try UuidCiphertext(contents: Data([0]) + Data(repeating: 0xff, count: 64)) }
        #expect(throws: SignalError.self) { try ProfileKeyCiphertext(contents: Data(count: 64)) }
    }

    @Test func whatAnotherGroupEncryptedDoesNotDecrypt() throws {
        let ours = ClientZkGroupCipher(groupSecretParams: try Self.group())
        let theirs = ClientZkGroupCipher(groupSecretParams: try GroupSecretParams.generate())
        let foreign = try theirs.encrypt(Aci(fromUUID: Self.testArray16))
        #expect(throws: SignalError.verificationFailed("the ciphertext is not a service id encrypted for this group")) {
            try ours.decrypt(foreign)
        }
        // E1 = the generator is refused outright.
        let generator = try UuidCiphertext(contents: Data([0] + RistrettoPoint.generator.bytes + RistrettoPoint.generator.bytes))
        #expect(throws: SignalError.self) { try ours.decrypt(generator) }
        #expect(throws: SignalError.self) { try ours.decryptBlob(blobCiphertext: theirs.encryptBlob(plaintext: Data("x".utf8))) }
        var tampered = [UInt8](try ours.encryptBlob(plaintext: Data("title".utf8)))
        tampered[2] ^= 1
        #expect(throws: SignalError.self) { try ours.decryptBlob(blobCiphertext: Data(tampered)) }
        #expect(throws: SignalError.verificationFailed("the blob is too short")) { try ours.decryptBlob(blobCiphertext: Data(count: 32)) }
    }
}
