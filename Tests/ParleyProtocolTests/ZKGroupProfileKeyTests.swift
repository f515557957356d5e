import Foundation
import Testing

@testable import ParleyProtocol

/// Profile-key commitments and versions (`ProfileKey.getCommitment(userId:)`, `getProfileKeyVersion(userId:)`): the
/// commitment generators are libsignal v0.101's `SYSTEM_HARDCODED` (`zkgroup/crypto/profile_key_commitment.rs`); libsignal
/// publishes no vector for a commitment or a version, so those are checked against an independent Python implementation
/// written from the published algorithm (profile key 64…83, ACI 00…0f).
@Suite struct ZKGroupProfileKeyTests {
    static let aci = Aci(fromUUID: UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)))
    static let profileKey = Data(100..<132)

    @Test func theCommitmentGeneratorsAreLibsignalsConstants() {
        #expect(
            ZKGroupGenerators.profileKeyCommitment.flatMap(\.bytes).hex
                == "a8ca0bbd1148c466725860640ac53d2772b14eeae0170a38c62c7b3dd29c3e4a14b9462d948f059450799f4cc2a06e55dec807735670b94a5ce80f59f1950861b0c0f7b91f6ef9c7556093d8930a86bd36188cec740554657d92dcd86aad251c"
        )
    }

    @Test func aCommitmentIsDeterministicPerKeyAndOwner() throws {
        let key = try ProfileKey(contents: Self.profileKey)
        let commitment = try key.getCommitment(userId: Self.aci)
        #expect(
            [UInt8](commitment.serialize()).hex
                == "00161fd735b05ab5b7893633ba79374874537309402ca55a2bbdcfe7b98a75c723de35786d33fbe0d4d19e68b9959fe210165ae201b6bd3d3eb58116ac63c609428206909a2f508e5cdc0e3c07ec5ebae6ef71136aacec9be09b49afe0539fd254"
        )
        #expect(try key.getCommitment(userId: Self.aci).serialize() == commitment.serialize())
        #expect(try key.getCommitment(userId: Aci(fromUUID: UUID())).serialize() != commitment.serialize())
        #expect(
            try ProfileKey(contents: Data(repeating: 7, count: 32)).getCommitment(userId: Self.aci).serialize() != commitment.serialize())
        #expect(try ProfileKeyCommitment(contents: commitment.serialize()).serialize() == commitment.serialize())
    }

    @Test func aVersionIsSixtyFourHexCharacters() throws {
        let key = try ProfileKey(contents: Self.profileKey)
        let version = try key.getProfileKeyVersion(userId: Self.aci)
        #expect(String(decoding: version.serialize(), as: UTF8.self) == "038cb06e115d2be17285ffe3508a4e298992ab8206d051afa4366a16a57aaf18")
        #expect(try ProfileKeyVersion(contents: version.serialize()).serialize() == version.serialize())
        #expect(throws: SignalError.self) { try ProfileKeyVersion(contents: Data(count: 63)) }
    }

    @Test func malformedCommitmentsAreRefused() throws {
        let bytes = [UInt8](try ProfileKey(contents: Self.profileKey).getCommitment(userId: Self.aci).serialize())
        #expect(throws: SignalError.self) { try ProfileKeyCommitment(contents: Data(bytes.dropLast())) }
        #expect(throws: SignalError.self) { try ProfileKeyCommitment(contents: Data(bytes + [0])) }
        var reserved = bytes
        reserved[0] = 1
        #expect(throws: SignalError.self) { try ProfileKeyCommitment(contents: Data(reserved)) }
        var point = bytes
        point.replaceSubrange(33..<65, with: [UInt8](repeating: 0xff, count: 32))
        #expect(throws: SignalError.self) { try ProfileKeyCommitment(contents: Data(point)) }
    }
}
