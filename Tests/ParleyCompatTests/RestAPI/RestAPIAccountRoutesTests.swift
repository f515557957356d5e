import Foundation
import Testing

@testable import ParleyCompat
@testable import ParleyKit

/// signal-cli-rest-api's routes about the account: identities, devices, the PIN, settings, contacts, the served
/// accounts and received attachments.
@Suite struct RestAPIAccountRoutesTests {
    static let safetyNumber = "12345 67890 12345 67890 12345 67890 12345 67890 12345 67890 12345 67890"

    @Test func identitiesAreListedAndTrusted() async throws {
        let harness = try CompatHarness()
        try await harness.rest { rest async throws in
            let listed = try await rest.call(.get, "/v1/identities/+15550000001")
            guard case .array(let identities)? = listed.body else {
                Issue.record("not a list: \(String(describing: listed.body))")
                return
            }
            #expect(
                identities.first
                    == json(
                        #"{"number":"+15550000002","uuid":"\#(RecordingClient.bob)","status":"TRUSTED_UNVERIFIED","fingerprint":"","#
                            + #""added":"0","safety_number":"\#(Self.safetyNumber)"}"#))
            let trusted = try await rest.call(
                .put, "/v1/identities/+15550000001/trust/+15550000002", #"{"verified_safety_number":"\#(Self.safetyNumber)"}"#)
            #expect(trusted.status == .noContent)
            #expect(
                try await rest.call(.put, "/v1/identities/+15550000001/trust/u:carol", #"{"trust_all_known_keys":true}"#).status
                    == .noContent)
            let neither = try await rest.call(.put, "/v1/identities/+15550000001/trust/+15550000002", #"{}"#)
            #expect(neither.body == restError("You need to specify a safety number (verifiedSafetyNumber) or trustAllKnownKeys"))
        }
        #expect(harness.client.calls == ["acceptIdentity(of: \(RecordingClient.bob))", "acceptIdentity(of: \(RecordingClient.carol))"])
    }

    @Test func devicesAreListedLinkedAndRemoved() async throws {
        let harness = try CompatHarness()
        let invitation = LinkInvitation.create()
        try await harness.rest { rest async throws in
            #expect(
                try await rest.call(.get, "/v1/devices/+15550000001").body
                    == json(#"[{"id":1,"name":"laptop","last_seen_timestamp":1600000000000,"creation_timestamp":1600000000000}]"#))
            let link = #"{"uri":"\#(invitation.code)"}"#
            #expect(try await rest.call(.post, "/v1/devices/+15550000001", link).status == .noContent)
            #expect(try await rest.call(.delete, "/v1/devices/+15550000001/3").status == .noContent)
            #expect(try await rest.call(.delete, "/v1/devices/+15550000001/three").body == restError("Invalid device id"))
        }
        #expect(harness.client.calls == ["approveLink(\(invitation.address))", "removeDevice(3)"])
    }

    @Test func thePINAndTheTrustModeSetting() async throws {
        let harness = try CompatHarness()
        try await harness.rest { rest async throws in
            #expect(try await rest.call(.post, "/v1/accounts/+15550000001/pin", #"{"pin":"2468"}"#).status == .created)
            #expect(try await rest.call(.delete, "/v1/accounts/+15550000001/pin").status == .noContent)
            #expect(try await rest.call(.get, "/v1/configuration/+15550000001/settings").body == json(#"{"trust_mode":"on-first-use"}"#))
            #expect(
                try await rest.call(.post, "/v1/configuration/+15550000001/settings", #"{"trust_mode":"on-first-use"}"#).status
                    == .noContent)
            let always = try await rest.call(.post, "/v1/configuration/+15550000001/settings", #"{"trust_mode":"always"}"#)
            #expect(always.status == .badRequest)
            #expect(
                always.body == restError("Parley's trust mode is on-first-use: a changed safety number is refused until it is trusted"))
        }
        #expect(harness.client.calls == ["createBackup(pin: 2468)", "deleteBackup()"])
    }

    @Test func theUsernameIsTakenAndGivenUpAsUpdateAccountDoes() async throws {
        let harness = try CompatHarness()
        let link = UsernameLinkAddress(entropy: Data(repeating: 1, count: 32), handle: UUID(uuidString: RecordingClient.carol)!)
        try await harness.rest { rest async throws in
            let taken = try await rest.call(.post, "/v1/accounts/+15550000001/username", #"{"username":"rest_bot"}"#)
            #expect(taken.status == .created)
            #expect(taken.body == json(#"{"username":"rest_bot.42","username_link":"\#(link)"}"#))
            let chosen = try await rest.call(.post, "/v1/accounts/+15550000001/username", #"{"username":"rest_bot.77"}"#)
            #expect(chosen.body == json(#"{"username":"rest_bot.77","username_link":"\#(link)"}"#))
            #expect(try await rest.call(.delete, "/v1/accounts/+15550000001/username").status == .noContent)
            let missing = try await rest.call(.post, "/v1/accounts/+15550000001/username", "{}")
            #expect(missing.status == .badRequest && missing.body == restError("updateAccount needs username or deleteUsername"))
        }
        #expect(
            harness.client.calls == [
                "setUsername(rest_bot, random)", "usernameLink(reset: false)", "setUsername(rest_bot, 77)", "usernameLink(reset: false)",
                "deleteUsername()",
            ])
    }

    @Test func contactsAndTheServedAccounts() async throws {
        let harness = try CompatHarness()
        let bob =
            #"{"number":"+15550000002","uuid":"\#(RecordingClient.bob)","name":"15550000002","profile_name":"","username":"15550000002","#
            + #""color":"","blocked":false,"message_expiration":"0"}"#
        try await harness.rest { rest async throws in
            guard case .array(let contacts)? = try await rest.call(.get, "/v1/contacts/+15550000001").body else {
                Issue.record("not a list")
                return
            }
            #expect(contacts.count == 2)
            #expect(contacts.first == json(bob))
            #expect(try await rest.call(.get, "/v1/contacts/+15550000001/+15550000002").body == json(bob))
            #expect(try await rest.call(.get, "/v1/contacts/+15550000001/\(RecordingClient.bob.uppercased())").body == json(bob))
            let nobody = try await rest.call(.get, "/v1/contacts/+15550000001/+15550000077")
            #expect(nobody.status == .notFound)
            #expect(try await rest.call(.get, "/v1/accounts").body == json(#"["+15550000001"]"#))
        }
    }

    @Test func receivedAttachmentsAreListedDownloadedAndDeleted() async throws {
        let harness = try CompatHarness()
        harness.client.state.withLock {
            $0.receivedAttachments = [
                AttachmentInfo(
                    id: 42, fileName: "cat.png", size: 13, contentType: "image/png", durationMilliseconds: nil, waveform: [],
                    voiceNote: false,
                    state: "pending")
            ]
        }
        let id = "\(RecordingClient.me)_42"
        try await harness.rest { rest async throws in
            let listed = json(#"["\#(id)"]"#)
            #expect(try await rest.call(.get, "/v1/attachments").body == listed)
            let download = try await rest.bytes("/v1/attachments/\(id)")
            #expect(download.status == .ok)
            #expect(download.body == Data("attachment 42".utf8))
            #expect(try await rest.call(.get, "/v1/attachments/\(RecordingClient.me)_43").status == .notFound)
            #expect(try await rest.call(.get, "/v1/attachments/nonsense").status == .notFound)
            #expect(try await rest.call(.delete, "/v1/attachments/\(id)").status == .noContent)
            #expect(try await rest.call(.delete, "/v1/attachments/\(id)").status == .notFound)
        }
        #expect(
            harness.client.calls == [
                "downloadAttachment(42, recordingIt: false)", "deleteReceivedAttachment(42)", "deleteReceivedAttachment(42)",
            ])
    }
}
