import Foundation
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyProtocol
import ParleyServer
import Testing

/// Group auth credentials (issue 44, part 2's first step): the server publishes its zkgroup public params and issues an
/// authenticated account one credential a day, which the account's client receives (checking the issuance proof with
/// LibSignalClient's API) and presents to a group, and which the server then verifies.
@Suite struct GroupCredentialTests {
    static let day: UInt64 = 86_400

    @Test func anAccountGetsDailyCredentialsItCanPresentToAGroup() async throws {
        let harness = try ServerHarness()
        let issuer = harness.dependencies.groupCredentials
        try await harness.run { client in
            let alice = try await client.register("alice")
            let (paramsStatus, paramsBody) = try await client.call(.get, APIRoutes.zkGroupPublicParams)
            #expect(paramsStatus == .ok)
            let encoded = try JSONDecoder().decode(ZKGroupPublicParamsResponse.self, from: paramsBody).serverPublicParams
            let publicParams = try ServerPublicParams(contents: try #require(Data(base64Encoded: encoded)))
            #expect(publicParams.serialize() == issuer.publicParams)

            let now = UInt64(Date().timeIntervalSince1970)
            let today = now - now % Self.day
            let path = "\(APIRoutes.groupAuthCredentials)?redemptionStartSeconds=\(today)&redemptionEndSeconds=\(today + 7 * Self.day)"
            let (status, body) = try await client.call(.get, path, headers: alice.headers)
            #expect(status == .ok)
            let response = try JSONDecoder().decode(GroupAuthCredentialsResponse.self, from: body)
            #expect(response.credentials.map(\.redemptionTime) == (0...7).map { today + $0 * Self.day })
            #expect(response.callLinkAuthCredentials.isEmpty)

            // The client checks each against the published params, for its own ACI.
            let aci = Aci(fromUUID: try #require(UUID(uuidString: alice.accountId)))
            let salt = try #require(Data(base64Encoded: response.authCredentialSalt))
            #expect(salt == issuer.pniSalt(accountId: aci.serviceIdString))
            let clientAuth = ClientZkAuthOperations(serverPublicParams: publicParams)
            let credentials = try response.credentials.map {
                try clientAuth.receiveAuthCredentialWithoutPni(
                    aci: aci, salt: salt, redemptionTime: $0.redemptionTime,
                    authCredentialResponse: AuthCredentialWithPniResponse(contents: try #require(Data(base64Encoded: $0.credential))))
            }
            // Another account's ACI does not receive them.
            #expect(throws: SignalError.self) {
                try clientAuth.receiveAuthCredentialWithoutPni(
                    aci: Aci(fromUUID: UUID()), salt: salt, redemptionTime: today,
                    authCredentialResponse: AuthCredentialWithPniResponse(
                        contents: try #require(Data(base64Encoded: response.credentials[0].credential))))
            }
            // Presented to a group, today's verifies under the server's keys and names Alice only as a ciphertext.
            let group = try GroupSecretParams.generate()
            let presentation = try clientAuth.createAuthCredentialPresentation(groupSecretParams: group, authCredential: credentials[0])
            try ServerZkAuthOperations(serverSecretParams: issuer.secretParams).verifyAuthCredentialPresentation(
                groupPublicParams: group.getPublicParams(), authCredentialPresentation: presentation)
            #expect(try ClientZkGroupCipher(groupSecretParams: group).decrypt(presentation.getUuidCiphertext()) == aci)

            // Without credentials: 401.
            #expect(try await client.call(.get, path).0 == .unauthorized)
        }
    }

    @Test func malformedRangesAreRefusedAndOthersClampedToTheWeek() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let alice = try await client.register("alice")
            let now = UInt64(Date().timeIntervalSince1970)
            let today = now - now % Self.day
            let base = APIRoutes.groupAuthCredentials
            for query in [
                "", "?redemptionStartSeconds=\(today)", "?redemptionStartSeconds=x&redemptionEndSeconds=\(today)",
                "?redemptionStartSeconds=-86400&redemptionEndSeconds=\(today)",
                "?redemptionStartSeconds=\(today + 1)&redemptionEndSeconds=\(today + Self.day)",
                "?redemptionStartSeconds=\(today)&redemptionEndSeconds=18446744073709551615",
            ] {
                let (status, body) = try await client.call(.get, base + query, headers: alice.headers)
                #expect(status == .badRequest, "\(query)")
                #expect(try JSONDecoder().decode(APIErrorBody.self, from: body).code == "bad_request")
            }
            func days(_ start: UInt64, _ end: UInt64) async throws -> [UInt64] {
                let (status, body) = try await client.call(
                    .get, base + "?redemptionStartSeconds=\(start)&redemptionEndSeconds=\(end)", headers: alice.headers)
                #expect(status == .ok)
                return try JSONDecoder().decode(GroupAuthCredentialsResponse.self, from: body).credentials.map(\.redemptionTime)
            }
            #expect(try await days(today, today) == [today])
            // Past days and days beyond the week are left out; a reversed or far range gets none.
            #expect(try await days(today - 3 * Self.day, today + Self.day) == [today, today + Self.day])
            #expect(try await days(0, 9_223_372_036_854_720_000) == (0...7).map { today + $0 * Self.day })
            #expect(try await days(today + Self.day, today) == [])
            #expect(try await days(today + 30 * Self.day, today + 31 * Self.day) == [])
        }
    }

    @Test func theKeysComeFromTheSeedSoProcessesAgree() throws {
        let seed = [UInt8](repeating: 42, count: 32)
        let one = GroupCredentialIssuer(seed: seed)
        let two = GroupCredentialIssuer(seed: seed)
        #expect(one.publicParams == two.publicParams)
        #expect(one.pniSalt(accountId: "a") == two.pniSalt(accountId: "a"))
        #expect(one.pniSalt(accountId: "a") != one.pniSalt(accountId: "b"))
        #expect(GroupCredentialIssuer(seed: [UInt8](repeating: 43, count: 32)).publicParams != one.publicParams)
        #expect(GroupCredentialIssuer().publicParams != one.publicParams)
    }
}
