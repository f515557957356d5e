import Foundation
import Testing

@testable import ParleyProtocol

/// Group send endorsements: `ZKGroupTests.swift`'s `groupSendIntegration`, `test1000PersonGroup` and `test1PersonGroup`.
/// libsignal publishes no fixed-randomness vector for them; the test checks the algebra end to end and that every
/// tampering is refused.
@Suite struct ZKGroupGroupSendTests {
    static let day: UInt64 = 86_400

    struct Scenario {
        let server: ServerSecretParams
        let serverPublic: ServerPublicParams
        let group: GroupSecretParams
        let alice, bob, eve, mallory: Aci
        let members: [Aci]
        let ciphertexts: [UuidCiphertext]
        let expiration: Date

        init() throws {
            server = try ServerSecretParams.generate(
                randomness: Randomness(
                    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31)))
            serverPublic = try server.getPublicParams()
            group = try GroupSecretParams.deriveFromMasterKey(groupMasterKey: GroupMasterKey(contents: Data(100..<132)))
            alice = try Aci.parseFrom(serviceIdString: "9d0652a3-dcc3-4d11-975f-74d61598733f")
            bob = try Aci.parseFrom(serviceIdString: "6838237d-02f6-4098-b110-698253d15961")
            eve = try Aci.parseFrom(serviceIdString: "3f0f4734-e331-4434-bd4f-6d8f6ea6dcc7")
            mallory = try Aci.parseFrom(serviceIdString: "5d088142-6fd7-4dbd-af00-fdda1b3ce988")
            members = [alice, bob, eve, mallory]
            let cipher = ClientZkGroupCipher(groupSecretParams: group)
            ciphertexts = try members.map { try cipher.encrypt($0) }
            let now = UInt64(Date().timeIntervalSince1970)
            expiration = Date(timeIntervalSince1970: TimeInterval(now - now % ZKGroupGroupSendTests.day + 2 * ZKGroupGroupSendTests.day))
        }
    }

    @Test func groupSendIntegration() throws {
        let s = try Scenario()
        let keyPair = GroupSendDerivedKeyPair.forExpiration(s.expiration, params: s.server)
        #expect(try GroupSendDerivedKeyPair(contents: keyPair.serialize()).serialize() == keyPair.serialize())
        let response = GroupSendEndorsementsResponse.issue(groupMembers: s.ciphertexts, keyPair: keyPair)
        #expect(response.expiration == s.expiration)
        #expect(try GroupSendEndorsementsResponse(contents: response.serialize()).serialize() == response.serialize())

        let received = try response.receive(groupMembers: s.members, localUser: s.alice, groupParams: s.group, serverParams: s.serverPublic)
        #expect(received.endorsements.count == 4)
        #expect(throws: SignalError.self, "missing local user") {
            try response.receive(
                groupMembers: [s.bob, s.eve, s.mallory], localUser: s.alice, groupParams: s.group, serverParams: s.serverPublic)
        }
        #expect(throws: SignalError.self, "missing another user") {
            try response.receive(
                groupMembers: [s.alice, s.eve, s.mallory], localUser: s.alice, groupParams: s.group, serverParams: s.serverPublic)
        }
        #expect(throws: SignalError.self, "another member in a slot") {
            try response.receive(
                groupMembers: [s.alice, s.bob, s.eve, Aci(fromUUID: UUID())], localUser: s.alice, groupParams: s.group,
                serverParams: s.serverPublic)
        }
        // With ciphertexts instead: the same endorsements.
        let again = try response.receive(groupMembers: s.ciphertexts, localUser: s.ciphertexts[0], serverParams: s.serverPublic)
        #expect(received.endorsements.map { $0.serialize() } == again.endorsements.map { $0.serialize() })
        #expect(throws: SignalError.self) {
            try response.receive(groupMembers: s.ciphertexts[1...], localUser: s.ciphertexts[0], serverParams: s.serverPublic)
        }
        #expect(throws: SignalError.self) {
            try response.receive(groupMembers: s.ciphertexts[..<3], localUser: s.ciphertexts[0], serverParams: s.serverPublic)
        }

        // Everyone but Alice.
        let fullToken = received.combinedEndorsement.toToken(groupParams: s.group).toFullToken(expiration: response.expiration)
        #expect(try GroupSendFullToken(contents: fullToken.serialize()).serialize() == fullToken.serialize())
        let verifyKey = GroupSendDerivedKeyPair.forExpiration(fullToken.expiration, params: s.server)
        try fullToken.verify(userIds: [s.bob, s.eve, s.mallory], keyPair: verifyKey)
        try fullToken.verify(userIds: [s.mallory, s.bob, s.eve], now: Date(timeIntervalSinceNow: 3_600), keyPair: verifyKey)
        #expect(throws: SignalError.self, "included extra user") {
            try fullToken.verify(userIds: [s.alice, s.bob, s.eve, s.mallory], keyPair: verifyKey)
        }
        #expect(throws: SignalError.self, "missing user") { try fullToken.verify(userIds: [s.eve, s.mallory], keyPair: verifyKey) }
        #expect(throws: SignalError.verificationFailed("the group send token has expired")) {
            try fullToken.verify(userIds: [s.bob, s.eve, s.mallory], now: s.expiration.addingTimeInterval(1), keyPair: verifyKey)
        }
        let otherDay = GroupSendDerivedKeyPair.forExpiration(s.expiration.addingTimeInterval(86_400), params: s.server)
        #expect(throws: SignalError.self) { try fullToken.verify(userIds: [s.bob, s.eve, s.mallory], keyPair: otherDay) }

        // Excluding a user.
        let butMallory = received.combinedEndorsement.byRemoving(received.endorsements[3])
            .toFullToken(groupParams: s.group, expiration: response.expiration)
        try butMallory.verify(userIds: [s.bob, s.eve], keyPair: verifyKey)
        // A custom combination, and one user alone.
        try GroupSendEndorsement.combine(received.endorsements[1...2]).toFullToken(groupParams: s.group, expiration: response.expiration)
            .verify(userIds: [s.bob, s.eve], keyPair: verifyKey)
        try received.endorsements[1].toFullToken(groupParams: s.group, expiration: response.expiration).verify(
            userIds: [s.bob], keyPair: verifyKey)
        // Another server's endorsements do not verify as this server's.
        let otherServer = try ServerSecretParams.generate()
        let foreign = GroupSendEndorsementsResponse.issue(
            groupMembers: s.ciphertexts, keyPair: GroupSendDerivedKeyPair.forExpiration(s.expiration, params: otherServer))
        #expect(throws: SignalError.verificationFailed("the endorsements are not for these members under this server's key")) {
            try foreign.receive(groupMembers: s.members, localUser: s.alice, groupParams: s.group, serverParams: s.serverPublic)
        }
    }

    @Test func theExpirationWindowIsTwoHoursToSevenDays() throws {
        let s = try Scenario()
        let now = UInt64(Date().timeIntervalSince1970)
        let startOfDay = now - now % Self.day
        func receive(expiringAt expiration: UInt64, now: UInt64) throws {
            let response = GroupSendEndorsementsResponse.issue(
                groupMembers: s.ciphertexts,
                keyPair: GroupSendDerivedKeyPair.forExpiration(Date(timeIntervalSince1970: TimeInterval(expiration)), params: s.server))
            _ = try response.receive(
                groupMembers: s.members, localUser: s.alice, now: Date(timeIntervalSince1970: TimeInterval(now)), groupParams: s.group,
                serverParams: s.serverPublic)
        }
        try receive(expiringAt: startOfDay + Self.day, now: startOfDay + Self.day - 2 * 3_600)
        try receive(expiringAt: startOfDay + 7 * Self.day, now: startOfDay)
        #expect(throws: SignalError.self) { try receive(expiringAt: startOfDay + Self.day, now: startOfDay + Self.day - 2 * 3_600 + 1) }
        #expect(throws: SignalError.self) { try receive(expiringAt: startOfDay + 8 * Self.day, now: startOfDay) }
        #expect(throws: SignalError.self) { try receive(expiringAt: startOfDay + 2 * Self.day + 1, now: startOfDay) }
    }

    @Test func tamperedAndMalformedResponsesAreRefused() throws {
        let s = try Scenario()
        let response = GroupSendEndorsementsResponse.issue(
            groupMembers: s.ciphertexts, keyPair: GroupSendDerivedKeyPair.forExpiration(s.expiration, params: s.server))
        let bytes = [UInt8](response.serialize())
        // Two endorsements swapped: the proof's weights bind each to its member.
        var swapped = bytes
        swapped.replaceSubrange(9..<41, with: bytes[41..<73])
        swapped.replaceSubrange(41..<73, with: bytes[9..<41])
        #expect(throws: SignalError.self) {
            try GroupSendEndorsementsResponse(contents: Data(swapped)).receive(
                groupMembers: s.members, localUser: s.alice, groupParams: s.group, serverParams: s.serverPublic)
        }
        var count = bytes
        count.replaceSubrange(1..<9, with: ZKGroupReader.littleEndian(UInt64.max))
        #expect(throws: SignalError.self) { try GroupSendEndorsementsResponse(contents: Data(count)) }
        #expect(throws: SignalError.self) { try GroupSendEndorsementsResponse(contents: Data(bytes.dropLast())) }
        #expect(throws: SignalError.self) { try GroupSendEndorsementsResponse(contents: Data(bytes + [0])) }
        #expect(throws: SignalError.self) { try GroupSendEndorsement(contents: Data([0] + [UInt8](repeating: 0xff, count: 32))) }
        #expect(throws: SignalError.self) { try GroupSendFullToken(contents: Data([0, 17, 0, 0, 0, 0, 0, 0, 0])) }
        #expect(throws: SignalError.self) { try GroupSendDerivedKeyPair(contents: Data(count: 72)) }
    }

    /// `test1000PersonGroup` (it once crashed a phone) and `test1PersonGroup`.
    @Test(arguments: [1, 1_000]) func groupsOfOneAndAThousand(size: Int) throws {
        let s = try Scenario()
        let members = (0..<size).map { _ in Aci(fromUUID: UUID()) }
        let cipher = ClientZkGroupCipher(groupSecretParams: s.group)
        let ciphertexts = try members.map { try cipher.encrypt($0) }
        let keyPair = GroupSendDerivedKeyPair.forExpiration(s.expiration, params: s.server)
        let response = GroupSendEndorsementsResponse.issue(groupMembers: ciphertexts, keyPair: keyPair)
        let received = try response.receive(
            groupMembers: members, localUser: members[0], groupParams: s.group, serverParams: s.serverPublic)
        _ = try response.receive(groupMembers: ciphertexts, localUser: ciphertexts[0], serverParams: s.serverPublic)
        let token = received.combinedEndorsement.toFullToken(groupParams: s.group, expiration: response.expiration)
        try token.verify(userIds: Array(members.dropFirst()), keyPair: keyPair)
    }
}
