import Foundation
import FuzzHarness
import ParleyProtocol

/// zkgroup's parsers: every serialized value a server or a client takes from the other side. The first byte picks the
/// type, the rest is its bytes: a value either refuses them with an error or reads them and serializes to the same
/// bytes (every point and scalar canonical). A presentation that reads is also verified against fixed server keys —
/// which fuzzed bytes never pass, and must not crash.
enum ZKGroupTargets {
    /// Fixed server keys (what the randomness is does not matter to the parsers; fixed, a crash replays exactly).
    static let server: ServerSecretParams = {
        var bytes: SignalRandomnessBytes = (
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        )
        bytes.0 = 42
        return try! ServerSecretParams.generate(randomness: Randomness(bytes))
    }()
    static let group = try! GroupSecretParams.deriveFromMasterKey(
        groupMasterKey: try! GroupMasterKey(contents: Data(repeating: 9, count: 32)))

    /// The types, by the input's first byte (modulo their count).
    static let parsers: [(String, @Sendable (Data) throws -> Data)] = [
        ("ServerPublicParams", { try ServerPublicParams(contents: $0).serialize() }),
        ("GroupPublicParams", { try GroupPublicParams(contents: $0).serialize() }),
        ("GroupSecretParams", { try GroupSecretParams(contents: $0).serialize() }),
        ("UuidCiphertext", { try UuidCiphertext(contents: $0).serialize() }),
        ("ProfileKeyCiphertext", { try ProfileKeyCiphertext(contents: $0).serialize() }),
        ("ProfileKeyCommitment", { try ProfileKeyCommitment(contents: $0).serialize() }),
        ("AuthCredentialWithPniResponse", { try AuthCredentialWithPniResponse(contents: $0).serialize() }),
        ("AuthCredentialWithPni", { try AuthCredentialWithPni(contents: $0).serialize() }),
        (
            "AuthCredentialPresentation",
            { bytes in
                let presentation = try AuthCredentialPresentation(contents: bytes)
                _ = try? ServerZkAuthOperations(serverSecretParams: server).verifyAuthCredentialPresentation(
                    groupPublicParams: try group.getPublicParams(), authCredentialPresentation: presentation)
                return presentation.serialize()
            }
        ),
        ("ProfileKeyCredentialRequest", { try ProfileKeyCredentialRequest(contents: $0).serialize() }),
        ("ExpiringProfileKeyCredentialResponse", { try ExpiringProfileKeyCredentialResponse(contents: $0).serialize() }),
        (
            "ProfileKeyCredentialPresentation",
            { bytes in
                let presentation = try ProfileKeyCredentialPresentation(contents: bytes)
                _ = try? ServerZkProfileOperations(serverSecretParams: server).verifyProfileKeyCredentialPresentation(
                    groupPublicParams: try group.getPublicParams(), profileKeyCredentialPresentation: presentation)
                return presentation.serialize()
            }
        ),
        ("GroupSendEndorsementsResponse", { try GroupSendEndorsementsResponse(contents: $0).serialize() }),
        ("NotarySignature", { try NotarySignature(contents: $0).serialize() }),
    ]

    static let values = FuzzTarget(
        run: { input in
            guard let selector = input.first else { return }
            let (name, parse) = parsers[Int(selector) % parsers.count]
            let bytes = Data(input.dropFirst())
            if let serialized = try? parse(bytes) {
                invariant(serialized == bytes, "a \(name) that reads serializes to the same bytes")
            }
        },
        seeds: {
            let publicParams = try! server.getPublicParams()
            let aci = Aci(fromUUID: UUID(uuidString: "9d0652a3-dcc3-4d11-975f-74d61598733f")!)
            let day: UInt64 = 1_700_006_400
            let response = try! ServerZkAuthOperations(serverSecretParams: server).issueAuthCredentialZkcWithoutPni(
                aci: aci, salt: Data(repeating: 1, count: 32), redemptionTime: day)
            let credential = try! ClientZkAuthOperations(serverPublicParams: publicParams).receiveAuthCredentialWithoutPni(
                aci: aci, salt: Data(repeating: 1, count: 32), redemptionTime: day, authCredentialResponse: response)
            let presentation = try! ClientZkAuthOperations(serverPublicParams: publicParams).createAuthCredentialPresentation(
                groupSecretParams: group, authCredential: credential)
            let profileKey = try! ProfileKey(contents: Data(repeating: 7, count: 32))
            let cipher = ClientZkGroupCipher(groupSecretParams: group)
            let values: [(Int, Data)] = [
                (0, publicParams.serialize()), (1, try! group.getPublicParams().serialize()), (2, group.serialize()),
                (3, try! cipher.encrypt(aci).serialize()),
                (4, try! cipher.encryptProfileKey(profileKey: profileKey, userId: aci).serialize()),
                (5, try! profileKey.getCommitment(userId: aci).serialize()), (6, response.serialize()), (7, credential.serialize()),
                (8, presentation.serialize()), (13, try! server.sign(message: Data("change".utf8)).serialize()),
            ]
            return values.map { [UInt8($0.0)] + Array($0.1) }
        })
}
