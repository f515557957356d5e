import Foundation
import Testing

@testable import ParleyProtocol

/// The auth credential (zkcredential, with PNI and without): issuance, receipt, presentation and verification, against
/// libsignal v0.101's `AUTH_CREDENTIAL_PRESENTATION_V4_RESULT` and the cases of its `ZKGroupTests.swift`
/// (`authZkcIntegration`, `authZkcWithoutPniIntegration`) and Rust `test_integration_auth_zkc`.
@Suite struct ZKGroupAuthTests {
    static let aci = Aci(fromUUID: UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)))
    static let pni = Pni(
        fromUUID: UUID(uuid: (0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x6B, 0x6C, 0x6D, 0x6E, 0x6F, 0x70, 0x71, 0x72, 0x73)))
    static let redemptionTime: UInt64 = 123_456 * 86_400
    static let randomness32 = Randomness(
        (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31))
    static let randomness32_2 = Randomness(
        (
            0xC8, 0xC9, 0xCA, 0xCB, 0xCC, 0xCD, 0xCE, 0xCF, 0xD0, 0xD1, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7,
            0xD8, 0xD9, 0xDA, 0xDB, 0xDC, 0xDD, 0xDE, 0xDF, 0xE0, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7
        ))
    static let randomness32_5 = Randomness(
        (
            0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12,
            0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x21, 0x22
        ))
    static let masterKey = Data(100..<132)

    struct Vectors: Decodable {
        let response: String
        let credential: String
        let presentationV4: String
    }

    struct Scenario {
        let server: ServerSecretParams
        let serverPublic: ServerPublicParams
        let group: GroupSecretParams
        let serverAuth: ServerZkAuthOperations
        let clientAuth: ClientZkAuthOperations

        init() throws {
            server = try ServerSecretParams.generate(randomness: ZKGroupAuthTests.randomness32)
            serverPublic = try server.getPublicParams()
            group = try GroupSecretParams.deriveFromMasterKey(groupMasterKey: GroupMasterKey(contents: ZKGroupAuthTests.masterKey))
            serverAuth = ServerZkAuthOperations(serverSecretParams: server)
            clientAuth = ClientZkAuthOperations(serverPublicParams: serverPublic)
        }
    }

    static func date(_ seconds: UInt64) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }

    @Test func aPresentationIsLibsignalsV4ByteForByte() throws {
        let vectors = try loadVectors("zkgroup-auth-credential", as: Vectors.self)
        let scenario = try Scenario()
        let response = try scenario.serverAuth.issueAuthCredentialWithPniZkc(
            randomness: Self.randomness32_2, aci: Self.aci, pni: Self.pni, redemptionTime: Self.redemptionTime)
        #expect([UInt8](response.serialize()).hex == vectors.response)
        let credential = try scenario.clientAuth.receiveAuthCredentialWithPniAsServiceId(
            aci: Self.aci, pni: Self.pni, redemptionTime: Self.redemptionTime, authCredentialResponse: response)
        #expect([UInt8](credential.serialize()).hex == vectors.credential)
        let presentation = try scenario.clientAuth.createAuthCredentialPresentation(
            randomness: Self.randomness32_5, groupSecretParams: scenario.group, authCredential: credential)
        #expect(presentation.serialize().count == 633)
        #expect([UInt8](presentation.serialize()).hex == vectors.presentationV4)

        // libsignal's bytes read back and verify here.
        let theirs = try AuthCredentialPresentation(contents: Data([UInt8](hex: vectors.presentationV4)))
        #expect(theirs.serialize() == presentation.serialize())
        try scenario.serverAuth.verifyAuthCredentialPresentation(
            groupPublicParams: scenario.group.getPublicParams(), authCredentialPresentation: theirs, now: Self.date(Self.redemptionTime))
    }

    /// `ZKGroupTests.swift`'s `authZkcIntegration`.
    @Test func authZkcIntegration() throws {
        let scenario = try Scenario()
        #expect(try scenario.group.getMasterKey().serialize() == Self.masterKey)
        let groupPublic = try scenario.group.getPublicParams()
        let response = try scenario.serverAuth.issueAuthCredentialWithPniZkc(
            randomness: Self.randomness32_2, aci: Self.aci, pni: Self.pni, redemptionTime: Self.redemptionTime)
        let credential = try scenario.clientAuth.receiveAuthCredentialWithPniAsServiceId(
            aci: Self.aci, pni: Self.pni, redemptionTime: Self.redemptionTime, authCredentialResponse: response)
        let cipher = ClientZkGroupCipher(groupSecretParams: scenario.group)
        let aciCiphertext = try cipher.encrypt(Self.aci)
        #expect(try cipher.decrypt(aciCiphertext) == Self.aci)
        let pniCiphertext = try cipher.encrypt(Self.pni)
        #expect(try cipher.decrypt(pniCiphertext) == Self.pni)
        let presentation = try scenario.clientAuth.createAuthCredentialPresentation(
            randomness: Self.randomness32_5, groupSecretParams: scenario.group, authCredential: credential)
        #expect(try presentation.getUuidCiphertext().serialize() == aciCiphertext.serialize())
        #expect(try presentation.getPniCiphertext().serialize() == pniCiphertext.serialize())
        #expect(try presentation.getRedemptionTime() == Self.date(Self.redemptionTime))
        try scenario.serverAuth.verifyAuthCredentialPresentation(
            groupPublicParams: groupPublic, authCredentialPresentation: presentation, now: Self.date(Self.redemptionTime))
    }

    /// `ZKGroupTests.swift`'s `authZkcWithoutPniIntegration`.
    @Test func authZkcWithoutPniIntegration() throws {
        let scenario = try Scenario()
        let salt = Data([1, 2, 3, 4, 5])
        let response = try scenario.serverAuth.issueAuthCredentialZkcWithoutPni(
            randomness: Self.randomness32_2, aci: Self.aci, salt: salt, redemptionTime: Self.redemptionTime)
        let credential = try scenario.clientAuth.receiveAuthCredentialWithoutPni(
            aci: Self.aci, salt: salt, redemptionTime: Self.redemptionTime, authCredentialResponse: response)
        let cipher = ClientZkGroupCipher(groupSecretParams: scenario.group)
        let aciCiphertext = try cipher.encrypt(Self.aci)
        let presentation = try scenario.clientAuth.createAuthCredentialPresentation(
            randomness: Self.randomness32_5, groupSecretParams: scenario.group, authCredential: credential)
        #expect(try presentation.getUuidCiphertext().serialize() == aciCiphertext.serialize())
        #expect(try presentation.getPniCiphertext().serialize() != aciCiphertext.serialize())
        #expect(try presentation.getRedemptionTime() == Self.date(Self.redemptionTime))
        try scenario.serverAuth.verifyAuthCredentialPresentation(
            groupPublicParams: scenario.group.getPublicParams(), authCredentialPresentation: presentation,
            now: Self.date(Self.redemptionTime))
        // Another salt is another stand-in: the credential does not receive under it.
        #expect(throws: SignalError.self) {
            try scenario.clientAuth.receiveAuthCredentialWithoutPni(
                aci: Self.aci, salt: Data([9]), redemptionTime: Self.redemptionTime, authCredentialResponse: response)
        }
    }

    /// The stand-in PNI is a name-based version 5 UUID (checked against RFC 9562's example: the DNS namespace and
    /// "www.example.com", in one part or two), one per account and salt.
    @Test func theStandInPniIsPerAccountAndSalt() {
        let dns = [UInt8](hex: "6ba7b8109dad11d180b400c04fd430c8")
        let expected = "2ed6657de927568b95e12665a8aea6a2"
        #expect(ServiceIdAttribute.nameBasedUUID(namespace: dns, name: [Array("www.example.com".utf8)]).hex == expected)
        #expect(ServiceIdAttribute.nameBasedUUID(namespace: dns, name: [Array("www.".utf8), Array("example.com".utf8)]).hex == expected)
        let one = ServiceIdAttribute.falsePni(aci: Self.aci, salt: [1, 2, 3])
        #expect(one.rawUUID == [UInt8](repeating: 0, count: 16))
        #expect(one == ServiceIdAttribute.falsePni(aci: Self.aci, salt: [1, 2, 3]))
        #expect(one != ServiceIdAttribute.falsePni(aci: Self.aci, salt: [1, 2, 4]))
        #expect(one != ServiceIdAttribute.falsePni(aci: Aci(fromUUID: UUID()), salt: [1, 2, 3]))
    }

    /// Rust's `test_integration_auth_zkc`: the day window is a day before to two days after.
    @Test func aPresentationIsAcceptedOnlyNearItsDay() throws {
        let scenario = try Scenario()
        let groupPublic = try scenario.group.getPublicParams()
        let credential = try scenario.clientAuth.receiveAuthCredentialWithPniAsServiceId(
            aci: Self.aci, pni: Self.pni, redemptionTime: Self.redemptionTime,
            authCredentialResponse: scenario.serverAuth.issueAuthCredentialWithPniZkc(
                aci: Self.aci, pni: Self.pni, redemptionTime: Self.redemptionTime))
        let presentation = try scenario.clientAuth.createAuthCredentialPresentation(
            groupSecretParams: scenario.group, authCredential: credential)
        for seconds in [Self.redemptionTime - 86_400, Self.redemptionTime + 2 * 86_400] {
            try scenario.serverAuth.verifyAuthCredentialPresentation(
                groupPublicParams: groupPublic, authCredentialPresentation: presentation, now: Self.date(seconds))
        }
        for seconds in [Self.redemptionTime - 86_401, Self.redemptionTime + 2 * 86_400 + 2] {
            #expect(throws: SignalError.verificationFailed("the auth credential is for another day")) {
                try scenario.serverAuth.verifyAuthCredentialPresentation(
                    groupPublicParams: groupPublic, authCredentialPresentation: presentation, now: Self.date(seconds))
            }
        }
    }

    @Test func aCredentialIsReceivedOnlyForItsAccountDayAndServer() throws {
        let scenario = try Scenario()
        let response = try scenario.serverAuth.issueAuthCredentialWithPniZkc(
            aci: Self.aci, pni: Self.pni, redemptionTime: Self.redemptionTime)
        let other = Aci(fromUUID: UUID())
        #expect(throws: SignalError.self) {
            try scenario.clientAuth.receiveAuthCredentialWithPniAsServiceId(
                aci: other, pni: Self.pni, redemptionTime: Self.redemptionTime, authCredentialResponse: response)
        }
        #expect(throws: SignalError.self) {
            try scenario.clientAuth.receiveAuthCredentialWithPniAsServiceId(
                aci: Self.aci, pni: Self.pni, redemptionTime: Self.redemptionTime + 86_400, authCredentialResponse: response)
        }
        // A redemption time that is not a whole day is refused even when the server issued it.
        let unaligned = try scenario.serverAuth.issueAuthCredentialWithPniZkc(
            aci: Self.aci, pni: Self.pni, redemptionTime: Self.redemptionTime + 1)
        #expect(throws: SignalError.verificationFailed("an auth credential's redemption time is a whole day")) {
            try scenario.clientAuth.receiveAuthCredentialWithPniAsServiceId(
                aci: Self.aci, pni: Self.pni, redemptionTime: Self.redemptionTime + 1, authCredentialResponse: unaligned)
        }
        let otherServer = ClientZkAuthOperations(serverPublicParams: try ServerSecretParams.generate().getPublicParams())
        #expect(throws: SignalError.self) {
            try otherServer.receiveAuthCredentialWithPniAsServiceId(
                aci: Self.aci, pni: Self.pni, redemptionTime: Self.redemptionTime, authCredentialResponse: response)
        }
    }

    @Test func aPresentationVerifiesOnlyForItsGroupServerAndCiphertexts() throws {
        let scenario = try Scenario()
        let vectors = try loadVectors("zkgroup-auth-credential", as: Vectors.self)
        let bytes = [UInt8](hex: vectors.presentationV4)
        let now = Self.date(Self.redemptionTime)
        let presentation = try AuthCredentialPresentation(contents: Data(bytes))
        let otherGroup = try GroupSecretParams.generate().getPublicParams()
        #expect(throws: SignalError.verificationFailed("the auth credential presentation does not verify")) {
            try scenario.serverAuth.verifyAuthCredentialPresentation(
                groupPublicParams: otherGroup, authCredentialPresentation: presentation, now: now)
        }
        let otherServer = ServerZkAuthOperations(serverSecretParams: try ServerSecretParams.generate())
        #expect(throws: SignalError.self) {
            try otherServer.verifyAuthCredentialPresentation(
                groupPublicParams: scenario.group.getPublicParams(), authCredentialPresentation: presentation, now: now)
        }
        // Swapping the two ciphertexts (claiming the PNI as the ACI) breaks the proof.
        var swapped = bytes
        swapped.replaceSubrange(497..<561, with: bytes[561..<625])
        swapped.replaceSubrange(561..<625, with: bytes[497..<561])
        #expect(throws: SignalError.self) {
            try scenario.serverAuth.verifyAuthCredentialPresentation(
                groupPublicParams: scenario.group.getPublicParams(),
                authCredentialPresentation: AuthCredentialPresentation(contents: Data(swapped)), now: now)
        }
        // Another member's ciphertext in the ACI slot breaks it too.
        let cipher = ClientZkGroupCipher(groupSecretParams: scenario.group)
        var impostor = bytes
        impostor.replaceSubrange(497..<561, with: [UInt8](try cipher.encrypt(Aci(fromUUID: UUID())).serialize()).dropFirst())
        #expect(throws: SignalError.self) {
            try scenario.serverAuth.verifyAuthCredentialPresentation(
                groupPublicParams: scenario.group.getPublicParams(),
                authCredentialPresentation: AuthCredentialPresentation(contents: Data(impostor)), now: now)
        }
        // A later day written over the redemption time: the proof binds the day.
        var later = bytes
        later.replaceSubrange(625..<633, with: ZKGroupReader.littleEndian(Self.redemptionTime + 86_400))
        #expect(throws: SignalError.self) {
            try scenario.serverAuth.verifyAuthCredentialPresentation(
                groupPublicParams: scenario.group.getPublicParams(),
                authCredentialPresentation: AuthCredentialPresentation(contents: Data(later)), now: now)
        }
        // Every single bit flipped in the proof is caught (by the reader or the verifier).
        for index in stride(from: 1, to: 633, by: 37) {
            var flipped = bytes
            flipped[index] ^= 0x01
            #expect(throws: SignalError.self) {
                try scenario.serverAuth.verifyAuthCredentialPresentation(
                    groupPublicParams: scenario.group.getPublicParams(),
                    authCredentialPresentation: AuthCredentialPresentation(contents: Data(flipped)), now: now)
            }
        }
    }

    @Test func malformedCredentialBytesAreRefusedWithTypedErrors() throws {
        let vectors = try loadVectors("zkgroup-auth-credential", as: Vectors.self)
        for hex in [vectors.response, vectors.credential, vectors.presentationV4] {
            let bytes = [UInt8](hex: hex)
            let readers: [(Data) throws -> Any] = [
                { try AuthCredentialWithPniResponse(contents: $0) }, { try AuthCredentialWithPni(contents: $0) },
                { try AuthCredentialPresentation(contents: $0) },
            ]
            for read in readers {
                #expect(throws: SignalError.self) { try read(Data(bytes.dropLast())) }
                #expect(throws: SignalError.self) { try read(Data(bytes + [0])) }
                #expect(throws: SignalError.self) { try read(Data()) }
                var version = bytes
                version[0] = 1
                #expect(throws: SignalError.self) { try read(Data(version)) }
            }
        }
        // A presentation claiming 2^60 commitments or an enormous proof is refused before anything is read.
        var bytes = [UInt8](hex: vectors.presentationV4)
        bytes.replaceSubrange(97..<105, with: ZKGroupReader.littleEndian(1 << 60))
        #expect(throws: SignalError.self) { try AuthCredentialPresentation(contents: Data(bytes)) }
        bytes = [UInt8](hex: vectors.presentationV4)
        bytes.replaceSubrange(265..<273, with: ZKGroupReader.littleEndian(UInt64.max))
        #expect(throws: SignalError.self) { try AuthCredentialPresentation(contents: Data(bytes)) }
        // Each reads back to its bytes.
        #expect(
            [UInt8](try AuthCredentialWithPniResponse(contents: Data([UInt8](hex: vectors.response))).serialize()).hex == vectors.response)
        #expect([UInt8](try AuthCredentialWithPni(contents: Data([UInt8](hex: vectors.credential))).serialize()).hex == vectors.credential)
    }
}
