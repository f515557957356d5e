import Foundation
import Testing

@testable import ParleyProtocol

/// The expiring profile-key credential: a blinded request, issuance against the stored commitment, receipt and
/// presentation, against libsignal v0.101's `PROFILE_KEY_CREDENTIAL_PRESENTATION_V4_RESULT` (Rust
/// `test_integration_expiring_profile`) and the cases of `ZKGroupTests.swift`'s `expiringProfileKeyIntegration`.
@Suite struct ZKGroupProfileKeyCredentialTests {
    static let aci = Aci(fromUUID: UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)))
    static func randomness(from first: UInt8) -> Randomness {
        var value = Randomness((0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        withUnsafeMutableBytes(of: &value.bytes) { buffer in for index in 0..<32 { buffer[index] = first &+ UInt8(index) } }
        return value
    }
    static let day: UInt64 = 86_400

    struct Vectors: Decodable { let presentationV4: String }

    struct Scenario {
        let server: ServerSecretParams
        let serverProfile: ServerZkProfileOperations
        let clientProfile: ClientZkProfileOperations
        let group: GroupSecretParams
        let profileKey: ProfileKey

        init() throws {
            server = try ServerSecretParams.generate(randomness: ZKGroupProfileKeyCredentialTests.randomness(from: 0))
            serverProfile = ServerZkProfileOperations(serverSecretParams: server)
            clientProfile = ClientZkProfileOperations(serverPublicParams: try server.getPublicParams())
            group = try GroupSecretParams.deriveFromMasterKey(groupMasterKey: GroupMasterKey(contents: Data(100..<132)))
            profileKey = try ProfileKey(contents: Data(100..<132))
        }

        /// Request (randomness 01…), issue (02…) expiring at `expiration`, receive at `now`.
        func credential(expiration: UInt64, now: UInt64) throws -> ExpiringProfileKeyCredential {
            let aci = ZKGroupProfileKeyCredentialTests.aci
            let context = try clientProfile.createProfileKeyCredentialRequestContext(
                randomness: ZKGroupProfileKeyCredentialTests.randomness(from: 1), userId: aci, profileKey: profileKey)
            let response = try serverProfile.issueExpiringProfileKeyCredential(
                randomness: ZKGroupProfileKeyCredentialTests.randomness(from: 2), profileKeyCredentialRequest: context.getRequest(),
                userId: aci, profileKeyCommitment: profileKey.getCommitment(userId: aci), expiration: expiration)
            return try clientProfile.receiveExpiringProfileKeyCredential(
                profileKeyCredentialRequestContext: context, profileKeyCredentialResponse: response,
                now: Date(timeIntervalSince1970: TimeInterval(now)))
        }
    }

    @Test func aPresentationIsLibsignalsV4ByteForByte() throws {
        let vectors = try loadVectors("zkgroup-profile-key-credential", as: Vectors.self)
        let scenario = try Scenario()
        let expiration = 17 * Self.day
        let credential = try scenario.credential(expiration: expiration, now: expiration - 2 * Self.day)
        #expect(credential.serialize().count == 153)
        #expect(credential.expirationTime == Date(timeIntervalSince1970: TimeInterval(expiration)))
        let presentation = try scenario.clientProfile.createProfileKeyCredentialPresentation(
            randomness: Self.randomness(from: 3), groupSecretParams: scenario.group, profileKeyCredential: credential)
        #expect([UInt8](presentation.serialize()).hex == vectors.presentationV4)

        let theirs = try ProfileKeyCredentialPresentation(contents: Data([UInt8](hex: vectors.presentationV4)))
        let groupPublic = try scenario.group.getPublicParams()
        try scenario.serverProfile.verifyProfileKeyCredentialPresentation(
            groupPublicParams: groupPublic, profileKeyCredentialPresentation: theirs,
            now: Date(timeIntervalSince1970: TimeInterval(expiration - 5)))
        for seconds in [expiration, expiration + 5] {
            #expect(throws: SignalError.verificationFailed("the profile key credential has expired")) {
                try scenario.serverProfile.verifyProfileKeyCredentialPresentation(
                    groupPublicParams: groupPublic, profileKeyCredentialPresentation: theirs,
                    now: Date(timeIntervalSince1970: TimeInterval(seconds)))
            }
        }
        let cipher = ClientZkGroupCipher(groupSecretParams: scenario.group)
        #expect(try theirs.getUuidCiphertext().serialize() == cipher.encrypt(Self.aci).serialize())
        #expect(
            try cipher.decryptProfileKey(profileKeyCiphertext: theirs.getProfileKeyCiphertext(), userId: Self.aci).serialize()
                == scenario.profileKey.serialize())
    }

    /// `ZKGroupTests.swift`'s `expiringProfileKeyIntegration`, with today's clock.
    @Test func expiringProfileKeyIntegration() throws {
        let scenario = try Scenario()
        let now = UInt64(Date().timeIntervalSince1970)
        let expiration = now - now % Self.day + 5 * Self.day
        let context = try scenario.clientProfile.createProfileKeyCredentialRequestContext(userId: Self.aci, profileKey: scenario.profileKey)
        #expect(context.serialize().count == 473)
        let request = try context.getRequest()
        #expect(request.serialize().count == 329)
        let response = try scenario.serverProfile.issueExpiringProfileKeyCredential(
            profileKeyCredentialRequest: request, userId: Self.aci,
            profileKeyCommitment: scenario.profileKey.getCommitment(userId: Self.aci),
            expiration: expiration)
        #expect(response.serialize().count == 497)
        let credential = try scenario.clientProfile.receiveExpiringProfileKeyCredential(
            profileKeyCredentialRequestContext: context, profileKeyCredentialResponse: response)
        let presentation = try scenario.clientProfile.createProfileKeyCredentialPresentation(
            groupSecretParams: scenario.group, profileKeyCredential: credential)
        let groupPublic = try scenario.group.getPublicParams()
        try scenario.serverProfile.verifyProfileKeyCredentialPresentation(
            groupPublicParams: groupPublic, profileKeyCredentialPresentation: presentation)
        try scenario.serverProfile.verifyProfileKeyCredentialPresentation(
            groupPublicParams: groupPublic, profileKeyCredentialPresentation: presentation,
            now: Date(timeIntervalSince1970: TimeInterval(expiration - 5)))
        #expect(throws: SignalError.self) {
            try scenario.serverProfile.verifyProfileKeyCredentialPresentation(
                groupPublicParams: groupPublic, profileKeyCredentialPresentation: presentation,
                now: Date(timeIntervalSince1970: TimeInterval(expiration)))
        }
        // Everything reads back to its bytes.
        #expect(try ProfileKeyCredentialRequestContext(contents: context.serialize()).serialize() == context.serialize())
        #expect(try ProfileKeyCredentialRequest(contents: request.serialize()).serialize() == request.serialize())
        #expect(try ExpiringProfileKeyCredentialResponse(contents: response.serialize()).serialize() == response.serialize())
        #expect(try ExpiringProfileKeyCredential(contents: credential.serialize()).serialize() == credential.serialize())
        #expect(try ProfileKeyCredentialPresentation(contents: presentation.serialize()).serialize() == presentation.serialize())
    }

    @Test func theServerIssuesOnlyForTheCommittedKey() throws {
        let scenario = try Scenario()
        let context = try scenario.clientProfile.createProfileKeyCredentialRequestContext(userId: Self.aci, profileKey: scenario.profileKey)
        let otherKey = try ProfileKey(contents: Data(repeating: 9, count: 32))
        #expect(throws: SignalError.verificationFailed("the profile key credential request does not match the commitment")) {
            try scenario.serverProfile.issueExpiringProfileKeyCredential(
                profileKeyCredentialRequest: context.getRequest(), userId: Self.aci,
                profileKeyCommitment: otherKey.getCommitment(userId: Self.aci), expiration: 20 * Self.day)
        }
        #expect(throws: SignalError.self) {
            try scenario.serverProfile.issueExpiringProfileKeyCredential(
                profileKeyCredentialRequest: context.getRequest(), userId: Self.aci,
                profileKeyCommitment: scenario.profileKey.getCommitment(userId: Aci(fromUUID: UUID())), expiration: 20 * Self.day)
        }
    }

    @Test func theClientRefusesAWrongOrBadlyTimedCredential() throws {
        let scenario = try Scenario()
        let aci = Self.aci
        let context = try scenario.clientProfile.createProfileKeyCredentialRequestContext(userId: aci, profileKey: scenario.profileKey)
        func issue(_ expiration: UInt64, for userId: Aci = aci) throws -> ExpiringProfileKeyCredentialResponse {
            try scenario.serverProfile.issueExpiringProfileKeyCredential(
                profileKeyCredentialRequest: context.getRequest(), userId: userId,
                profileKeyCommitment: scenario.profileKey.getCommitment(userId: aci), expiration: expiration)
        }
        let now = Date(timeIntervalSince1970: TimeInterval(100 * Self.day))
        func receive(_ response: ExpiringProfileKeyCredentialResponse) throws {
            _ = try scenario.clientProfile.receiveExpiringProfileKeyCredential(
                profileKeyCredentialRequestContext: context, profileKeyCredentialResponse: response, now: now)
        }
        try receive(try issue(101 * Self.day))
        try receive(try issue(107 * Self.day))
        for expiration in [100 * Self.day, 108 * Self.day, 99 * Self.day, 101 * Self.day + 1] {
            #expect(throws: SignalError.self) { try receive(try issue(expiration)) }
        }
        // Issued under another server's key: the proof fails.
        let other = ServerZkProfileOperations(serverSecretParams: try ServerSecretParams.generate())
        let foreign = try other.issueExpiringProfileKeyCredential(
            profileKeyCredentialRequest: context.getRequest(), userId: aci,
            profileKeyCommitment: scenario.profileKey.getCommitment(userId: aci),
            expiration: 102 * Self.day)
        #expect(throws: SignalError.verificationFailed("the profile key credential was not issued by this server for this request")) {
            try receive(foreign)
        }
    }

    @Test func aPresentationVerifiesOnlyForItsGroupAndCiphertexts() throws {
        let vectors = try loadVectors("zkgroup-profile-key-credential", as: Vectors.self)
        let scenario = try Scenario()
        let bytes = [UInt8](hex: vectors.presentationV4)
        let now = Date(timeIntervalSince1970: TimeInterval(15 * Self.day))
        func verify(_ bytes: [UInt8], group: GroupPublicParams? = nil) throws {
            try scenario.serverProfile.verifyProfileKeyCredentialPresentation(
                groupPublicParams: group ?? scenario.group.getPublicParams(),
                profileKeyCredentialPresentation: ProfileKeyCredentialPresentation(contents: Data(bytes)), now: now)
        }
        try verify(bytes)
        #expect(throws: SignalError.self) { try verify(bytes, group: try GroupSecretParams.generate().getPublicParams()) }
        // Another profile key beside the same member: refused.
        let cipher = ClientZkGroupCipher(groupSecretParams: scenario.group)
        var otherKey = bytes
        let foreignKey = try cipher.encryptProfileKey(profileKey: ProfileKey(contents: Data(repeating: 5, count: 32)), userId: Self.aci)
        otherKey.replaceSubrange(649..<713, with: [UInt8](foreignKey.serialize()).dropFirst())
        #expect(throws: SignalError.self) { try verify(otherKey) }
        // A later expiration written in: refused.
        var later = bytes
        later.replaceSubrange(713..<721, with: ZKGroupReader.littleEndian(30 * Self.day))
        #expect(throws: SignalError.self) { try verify(later) }
        for index in stride(from: 1, to: 721, by: 41) {
            var flipped = bytes
            flipped[index] ^= 0x01
            #expect(throws: SignalError.self) { try verify(flipped) }
        }
        // Malformed bytes: typed errors.
        #expect(throws: SignalError.self) { try verify(Array(bytes.dropLast())) }
        #expect(throws: SignalError.self) { try verify(bytes + [0]) }
        var version = bytes
        version[0] = 2
        #expect(throws: SignalError.self) { try verify(version) }
        var count = bytes
        count.replaceSubrange(257..<265, with: ZKGroupReader.littleEndian(UInt64.max))
        #expect(throws: SignalError.self) { try verify(count) }
    }
}
