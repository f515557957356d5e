import Foundation
import ParleyProtocol
import Testing

@_spi(Inspection) @testable import ParleyKit

/// Linking a device from another machine: the provisioning cipher, link codes, and the exchange through a real server.
@Suite struct DeviceProvisioningTests {
    @Test func theProvisioningCipherRoundTripsAndRefusesAnythingElse() throws {
        let recipient = PrivateKey.generate()
        let plaintext = Array("the account identity".utf8)
        let envelope = try ProvisioningCipher.encrypt(plaintext, to: recipient.publicKey)
        #expect(try ProvisioningCipher.decrypt(envelope, with: recipient) == plaintext)
        // 33-byte key, version, IV, ciphertext padded to whole blocks, MAC.
        #expect(envelope.count == 33 + 1 + 16 + 32 + 32 && envelope[33] == 1)

        #expect(throws: ParleyError.provisioning(.badMAC)) { try ProvisioningCipher.decrypt(envelope, with: PrivateKey.generate()) }
        for index in [40, envelope.count - 40, envelope.count - 1] {
            var tampered = envelope
            tampered[index] ^= 0x01
            #expect(throws: ParleyError.provisioning(.badMAC)) { try ProvisioningCipher.decrypt(tampered, with: recipient) }
        }
        var otherVersion = envelope
        otherVersion[33] = 2
        #expect(throws: ParleyError.provisioning(.unsupportedVersion(2))) { try ProvisioningCipher.decrypt(otherVersion, with: recipient) }
        for length in [0, 32, 33, 97] {
            #expect(
                throwsParleyError(
                    { if case .provisioning = $0 { true } else { false } },
                    { try ProvisioningCipher.decrypt(Array(envelope.prefix(length)), with: recipient) }))
        }
        var badKey = envelope
        badKey[0] = 0x07
        #expect(
            throwsParleyError(
                { if case .provisioning = $0 { true } else { false } },
                { try ProvisioningCipher.decrypt(badKey, with: recipient) }))
    }

    @Test func linkCodesRoundTripAndMalformedOnesAreRefused() throws {
        let invitation = LinkInvitation.create()
        let parsed = try LinkInvitation(code: invitation.code)
        #expect(parsed.address == invitation.address && parsed.publicKey == invitation.publicKey)
        for code in [
            "", "https://link?address=aaaaaaaaaaaaaaaaaaaaaaaa&key=BQ", "parley://link?key=" + invitation.code.suffix(44),
            "parley://link?address=short&key=BQ", "parley://link?address=\(invitation.address)&key=!!!",
            "parley://link?address=\(invitation.address)&key=AAAA",
        ] {
            #expect(throwsParleyError({ if case .provisioning = $0 { true } else { false } }, { try LinkInvitation(code: code) }))
        }
    }

    @Test func aNewDeviceLinksFromTheCodeAloneAndTheMessageIsTakenOnce() async throws {
        try await TestServer.run { server in
            let phone = try server.client("phone")
            let laptop = try server.client("laptop")
            let peer = try server.client("peer")
            let accountId = try await phone.accounts.register(username: "dana").accountId
            let peerId = try await peer.accounts.register(username: "erin").accountId

            // The laptop shows a code; the phone sees only the text; the laptop waits for the approval.
            let invitation = LinkInvitation.create()
            async let linked = laptop.accounts.completeLink(
                invitation, deviceName: "laptop", pollInterval: .milliseconds(50), timeout: .seconds(30))
            try await phone.accounts.approveLink(try LinkInvitation(code: invitation.code))
            let credentials = try await linked
            #expect(credentials.accountId == accountId && credentials.deviceId == 2)
            #expect(try laptop.accounts.account()?.username == "dana")
            // Same identity on both devices: the peer sees one safety number for the account.
            #expect(
                try laptop.database.read { db in try Data.fetchOne(db, sql: "SELECT identity_key_pair FROM local_account") }
                    == (try phone.database.read { db in try Data.fetchOne(db, sql: "SELECT identity_key_pair FROM local_account") }))
            // The server gave the message out once.
            #expect(try await phone.api.takeProvisioningMessage(at: invitation.address) == nil)

            // The linked laptop is a full device: it receives what the peer sends to the account.
            try peer.sender.enqueue(body: "hi dana", to: accountId)
            #expect(try await peer.runJobs().completed == 1)
            #expect(try await laptop.receiveOnce().count == 1)
            #expect(try laptop.conversations().first?.lastMessagePreview == "hi dana")
            _ = peerId

            // A linked device cannot approve links, and nobody's approval means a timeout.
            await #expect(throws: ParleyError.self) { try await laptop.accounts.approveLink(LinkInvitation.create()) }
            let lonely = try server.client("lonely")
            await #expect(throws: ParleyError.provisioning(.timedOut)) {
                try await lonely.accounts.completeLink(
                    LinkInvitation.create(), pollInterval: .milliseconds(20), timeout: .milliseconds(100))
            }
        }
    }
}
