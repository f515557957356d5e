import Foundation
import ParleyProtocol
import Testing

@_spi(Inspection) @testable import ParleyKit

/// The client's group credentials against a real server: public params kept on first use, a week of credentials each
/// received (its issuance proof checked) for the account's own ACI, and presentable to a group.
@Suite struct GroupCredentialClientTests {
    @Test func aWeekOfCredentialsIsReceivedCheckedAndPresentable() async throws {
        try await TestServer.run { server in
            let phone = try server.client("phone")
            let account = try await phone.accounts.register(username: "fern")
            let params = try await phone.accounts.zkGroupPublicParams()
            let credentials = try await phone.accounts.groupAuthCredentials()
            let now = UInt64(Date().timeIntervalSince1970)
            let today = now - now % 86_400
            #expect(credentials.keys.sorted() == (0...7).map { today + $0 * 86_400 })

            // A presentation to a group carries this account's ACI, encrypted; the server's keys verify it.
            let group = try GroupSecretParams.generate()
            let presentation = try ClientZkAuthOperations(serverPublicParams: params).createAuthCredentialPresentation(
                groupSecretParams: group, authCredential: try #require(credentials[today]))
            #expect(
                try ClientZkGroupCipher(groupSecretParams: group).decrypt(presentation.getUuidCiphertext())
                    == Aci(fromUUID: try #require(UUID(uuidString: account.accountId))))
            try ServerZkAuthOperations(serverSecretParams: server.groupCredentials.secretParams).verifyAuthCredentialPresentation(
                groupPublicParams: group.getPublicParams(), authCredentialPresentation: presentation)

            // Params kept from first use: other params put in their place make every credential fail to check out.
            let other = try ServerSecretParams.generate().getPublicParams().serialize().base64EncodedString()
            try phone.database.write { try SettingsTable.set(SettingsTable.zkGroupPublicParams, to: other, $0) }
            await #expect(throws: ParleyError.self) { _ = try await phone.accounts.groupAuthCredentials(days: 1) }
            await #expect(throws: ParleyError.self) { _ = try await phone.accounts.groupAuthCredentials(days: 8) }
        }
    }
}
