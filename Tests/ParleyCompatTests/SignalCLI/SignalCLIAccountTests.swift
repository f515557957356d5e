import Foundation
import Testing

@testable import ParleyCompat
@testable import ParleyKit

/// signal-cli's methods about people, identities, devices and the PIN: `version`, `getUserStatus`, `listContacts`,
/// `listIdentities`, `trust`, `listDevices`, `addDevice`, `removeDevice`, `setPin`, `removePin`, `updateAccount`.
@Suite struct SignalCLIAccountTests {
    static let safetyNumber = "12345 67890 12345 67890 12345 67890 12345 67890 12345 67890 12345 67890"

    @Test func theTableAnswersExactlyTheseMethods() {
        #expect(
            Set(SignalCLIMethods.table.keys) == [
                "version", "send", "sendReaction", "sendReceipt", "sendTyping", "remoteDelete", "listGroups", "updateGroup", "quitGroup",
                "joinGroup",
                "getUserStatus", "listContacts", "listIdentities", "trust", "listDevices", "addDevice", "removeDevice", "setPin",
                "removePin", "updateAccount",
            ])
    }

    @Test func updateAccountTakesAndGivesUpTheUsername() async throws {
        let harness = try CompatHarness()
        let link = UsernameLinkAddress(entropy: Data(repeating: 1, count: 32), handle: UUID(uuidString: RecordingClient.carol)!)
        #expect(
            try await harness.result("updateAccount", #"{"username":"bot"}"#)
                == json(#"{"username":"bot.42","usernameLink":"\#(link)"}"#))
        #expect(
            try await harness.result("updateAccount", #"{"username":"bot.07"}"#)
                == json(#"{"username":"bot.07","usernameLink":"\#(link)"}"#))
        #expect(try await harness.result("updateAccount", #"{"deleteUsername":true}"#) == json(#"{"username":null,"usernameLink":null}"#))
        #expect(harness.client.calls.filter { $0.hasPrefix("setUsername") } == ["setUsername(bot, random)", "setUsername(bot, 07)"])
        #expect(
            try await harness.error("updateAccount", #"{"deviceName":"x"}"#).message
                == "updateAccount: deviceName has no Parley counterpart")
        let invalid = try await harness.error("updateAccount", #"{"username":"0bot"}"#)
        #expect(invalid.code == -1 && invalid.message.hasPrefix("Invalid username"))
        #expect(try await harness.error("updateAccount", #"{"username":"bot","deleteUsername":true}"#).code == -1)
    }

    @Test func versionNeedsNoAccount() async throws {
        let harness = try CompatHarness()
        #expect(try await harness.result("version") == json(#"{"version":"\#(ParleyVersion.current)"}"#))
    }

    @Test func userStatusSaysWhoIsRegistered() async throws {
        let harness = try CompatHarness()
        let result = try await harness.result("getUserStatus", #"{"recipient":["+15550000002","+15559999999"],"username":"carol"}"#)
        #expect(
            result
                == json(
                    #"[{"recipient":"+15550000002","number":"+15550000002","username":"15550000002","uuid":"\#(RecordingClient.bob)","isRegistered":true},"#
                        + #"{"recipient":"+15559999999","number":"+15559999999","username":"15559999999","uuid":null,"isRegistered":false},"#
                        + #"{"recipient":"u:carol","number":null,"username":"carol","uuid":"\#(RecordingClient.carol)","isRegistered":true}]"#
                ))
        let tooMany = try await harness.error(
            "getUserStatus", #"{"recipient":[\#((0...1_000).map { #""u:\#($0)""# }.joined(separator: ","))]}"#)
        #expect(tooMany.message == "At most 1000 recipients per call")
    }

    @Test func contactsAreTheOneToOneConversations() async throws {
        let harness = try CompatHarness()
        harness.client.addGroup("Team", id: Data(repeating: 9, count: 16), members: [RecordingClient.bob])
        let result = try await harness.result("listContacts")
        let common = #""isBlocked":false,"isArchived":false,"isHidden":false,"profileSharing":true,"unregistered":false,"profile":null"#
        #expect(
            result
                == json(
                    #"[{"number":"+15550000002","uuid":"\#(RecordingClient.bob)","username":"15550000002","name":"15550000002",\#(common),"messageExpirationTime":0},"#
                        + #"{"number":null,"uuid":"\#(RecordingClient.carol)","username":"carol","name":"carol",\#(common),"messageExpirationTime":3600}]"#
                ))
    }

    @Test func identitiesCarryTheSafetyNumberInGroupsOfFive() async throws {
        let harness = try CompatHarness()
        let rest = #""scannableSafetyNumber":null,"fingerprint":null,"trustLevel":"TRUSTED_UNVERIFIED","addedTimestamp":0"#
        let result = try await harness.result("listIdentities", #"{"number":"+15550000002"}"#)
        #expect(
            result
                == json(
                    #"[{"number":"+15550000002","uuid":"\#(RecordingClient.bob)","safetyNumber":"\#(Self.safetyNumber)",\#(rest)}]"#))
        guard case .array(let all) = try await harness.result("listIdentities") else {
            Issue.record("not a list")
            return
        }
        #expect(all.count == 2)
    }

    @Test func trustChecksTheSafetyNumberFirst() async throws {
        let harness = try CompatHarness()
        #expect(
            try await harness.result("trust", #"{"recipient":"+15550000002","verifiedSafetyNumber":"\#(Self.safetyNumber)"}"#)
                == .object([:]))
        #expect(harness.client.calls == ["acceptIdentity(of: \(RecordingClient.bob))"])
        let wrong = try await harness.error("trust", #"{"recipient":"+15550000002","verifiedSafetyNumber":"1234"}"#)
        #expect(wrong.message == "The given safety number does not match the one for +15550000002")
        #expect(harness.client.calls.count == 1)
        _ = try await harness.result("trust", #"{"recipient":"u:carol","trustAllKnownKeys":true}"#)
        #expect(harness.client.calls.last == "acceptIdentity(of: \(RecordingClient.carol))")
    }

    @Test func devicesAreListedLinkedAndRemoved() async throws {
        let harness = try CompatHarness()
        #expect(
            try await harness.result("listDevices")
                == json(#"[{"id":1,"name":"laptop","createdTimestamp":1600000000000,"lastSeenTimestamp":1600000000000}]"#))
        let invitation = LinkInvitation.create()
        #expect(try await harness.result("addDevice", #"{"uri":"\#(invitation.code)"}"#) == .object([:]))
        #expect(try await harness.result("removeDevice", #"{"deviceId":"2"}"#) == .object([:]))
        #expect(harness.client.calls == ["approveLink(\(invitation.address))", "removeDevice(2)"])
        let signalURI = try await harness.error("addDevice", #"{"uri":"sgnl://linkdevice?uuid=x&pub_key=y"}"#)
        #expect(signalURI.message == "Invalid device link uri: Parley links with the parley://link?… code `parley link` shows")
        #expect(try await harness.error("addDevice").message == "Device link uri parameter is missing")
        #expect(try await harness.error("removeDevice").message == "Device id parameter is missing")
        #expect(try await harness.error("removeDevice", #"{"deviceId":-1}"#).message == "Device id parameter is missing")
    }

    @Test func thePINProtectsTheIdentityBackup() async throws {
        let harness = try CompatHarness()
        #expect(try await harness.result("setPin", #"{"pin":"1234"}"#) == .object([:]))
        #expect(try await harness.result("removePin") == .object([:]))
        #expect(harness.client.calls == ["createBackup(pin: 1234)", "deleteBackup()"])
        #expect(try await harness.error("setPin", #"{"pin":""}"#).message == "PIN parameter is missing")
    }

    @Test func everyParametersTypeDecodesFromJSON() throws {
        let decoded = try JSONDecoder().decode(
            SendParameters.self,
            from: Data(#"{"recipients":["+1"],"username":"carol","groupId":"g","message":"m","attachment":"a","editTimestamp":"5"}"#.utf8))
        #expect(decoded.people == ["+1", "u:carol"])
        #expect(decoded.groupIds == ["g"])
        #expect(decoded.attachments == ["a"])
        #expect(decoded.editTimestamp == 5)
        #expect(throws: JSONRPCError.self) {
            try JSONDecoder().decode(SendReceiptParameters.self, from: Data(#"{"targetTimestamps":["soon"]}"#.utf8))
        }
    }
}
