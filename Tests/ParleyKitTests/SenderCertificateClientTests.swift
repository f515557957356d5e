import Foundation
import ParleyProtocol
import Testing

@_spi(Inspection) @testable import ParleyKit

/// The client learns the trust root at registration and link, and accepts its sender certificate only against it.
@Suite struct SenderCertificateClientTests {
    @Test func registrationAndLinkTellTheTrustRootAndTheCertificateChecksOut() async throws {
        try await TestServer.run { server in
            let phone = try server.client("phone")
            let credentials = try await phone.accounts.register(username: "fern")
            let trustRoot = try #require(try phone.accounts.sealedSenderTrustRoot())
            let certificate = try await phone.accounts.senderCertificate()
            #expect(certificate.senderUuid == credentials.accountId && certificate.deviceId == 1)
            #expect(certificate.validate(trustRoot: trustRoot, time: UInt64(Date().timeIntervalSince1970 * 1000)))

            // A pinned root other than the server's: the certificate is refused.
            await #expect(throws: ParleyError.self) {
                _ = try await phone.accounts.senderCertificate(pinnedTrustRoot: PrivateKey.generate().publicKey)
            }
            // Checked a day and an hour later, a fresh certificate has expired: refused too.
            let later = UInt64(Date().timeIntervalSince1970 * 1000) + 25 * 3600 * 1000
            await #expect(throws: ParleyError.self) { _ = try await phone.accounts.senderCertificate(now: later) }

            let laptop = try server.client("laptop")
            let linked = try await phone.accounts.linkNewDevice(database: laptop.database)
            #expect(linked.deviceId == 2)
            #expect(try laptop.accounts.sealedSenderTrustRoot() == trustRoot)
            #expect(try await laptop.accounts.senderCertificate().deviceId == 2)
        }
    }
}
