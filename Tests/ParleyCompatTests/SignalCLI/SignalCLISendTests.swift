import Foundation
import Testing

@testable import ParleyCompat
@testable import ParleyKit

/// signal-cli's `send`: request JSON in, the client's calls and the answer out.
@Suite struct SignalCLISendTests {
    let bob = address(RecordingClient.bob, "15550000002")

    @Test func aMessageToAPersonIsQueuedThenSentInOnePass() async throws {
        let harness = try CompatHarness()
        let result = try await harness.result("send", #"{"recipient":["+15550000002"],"message":"hi"}"#)
        #expect(
            harness.client.calls == [
                #"send("hi" to person bbbbbbbb-0000-4000-8000-000000000002, queueOnly)"#, "sendQueued(dueJobs)",
            ])
        #expect(result == json(#"{"timestamp":1700000000000,"results":[{"recipientAddress":\#(bob),"type":"SUCCESS"}]}"#))
    }

    @Test func aMessageToAGroupAnswersForEachOtherMember() async throws {
        let harness = try CompatHarness()
        let group = harness.client.addGroup(
            "Team", id: Data(repeating: 1, count: 16), members: [RecordingClient.bob, RecordingClient.carol])
        let id = GroupID(group.id).base64
        let result = try await harness.result("send", #"{"groupId":"\#(id)","message":"hello all"}"#)
        #expect(harness.client.calls == [#"send("hello all" to group \#(id), queueOnly)"#, "sendQueued(dueJobs)"])
        let carol = address(RecordingClient.carol, "carol")
        #expect(
            result
                == json(
                    #"{"timestamp":1700000000000,"results":[{"recipientAddress":\#(bob),"type":"SUCCESS","groupId":"\#(id)"},"#
                        + #"{"recipientAddress":\#(carol),"type":"SUCCESS","groupId":"\#(id)"}]}"#))
    }

    @Test func usernamesAndUUIDsNameTheSamePersonOnce() async throws {
        let harness = try CompatHarness()
        _ = try await harness.result(
            "send", #"{"recipients":["+15550000002","\#(RecordingClient.bob.uppercased())"],"username":"carol","message":"hi"}"#)
        #expect(
            harness.client.calls == [
                #"send("hi" to person bbbbbbbb-0000-4000-8000-000000000002, queueOnly)"#,
                #"send("hi" to person cccccccc-0000-4000-8000-000000000003, queueOnly)"#, "sendQueued(dueJobs)",
            ])
    }

    @Test func aMessageTheServerCouldNotTakeYetIsSignalCLIsNetworkFailure() async throws {
        let harness = try CompatHarness()
        harness.client.state.withLock { $0.statusAfterJobs = .sending }
        let error = try await harness.error("send", #"{"recipient":"+15550000002","message":"hi"}"#)
        #expect(error.code == -1)
        #expect(error.message == "Failed to send message")
        #expect(
            error.data
                == json(
                    #"{"response":{"timestamp":1700000000000,"results":[{"recipientAddress":\#(bob),"type":"NETWORK_FAILURE"}]}}"#))
    }

    @Test func anEditReplacesTheOwnMessageSentAtEditTimestamp() async throws {
        let harness = try CompatHarness()
        let own = harness.client.add(from: RecordingClient.me, at: 1_600_000_000_000, body: "helo")
        let result = try await harness.result(
            "send", #"{"recipient":"+15550000002","message":"hello","editTimestamp":"1600000000000"}"#)
        #expect(harness.client.calls == [#"edit(\#(own.id), body: "hello", dueJobs)"#])
        #expect(result == json(#"{"timestamp":1700000000000,"results":[{"recipientAddress":\#(bob),"type":"SUCCESS"}]}"#))
        let missing = try await harness.error("send", #"{"recipient":"+15550000002","message":"x","editTimestamp":5}"#)
        #expect(missing.code == -1)
        #expect(missing.message == "Target message not found: this account's message at 5")
    }

    @Test func aQuoteAndMentionsTravelWithTheMessage() async throws {
        let harness = try CompatHarness()
        let quoted = harness.client.add(from: RecordingClient.bob, at: 1_600_000_000_123)
        _ = try await harness.result(
            "send",
            #"{"recipient":"+15550000002","message":"@carol look","quoteTimestamp":1600000000123,"quoteAuthor":"+15550000002","mention":"0:6:u:carol"}"#
        )
        #expect(
            harness.client.calls.first
                == #"send("@carol look" to person bbbbbbbb-0000-4000-8000-000000000002, replying to \#(quoted.id), mentions ["0:6:cccccccc-0000-4000-8000-000000000003"], queueOnly)"#
        )
        let noAuthor = try await harness.error("send", #"{"recipient":"+15550000002","message":"x","quoteTimestamp":1}"#)
        #expect(noAuthor.message == "Quote author parameter is missing")
        let badMention = try await harness.error("send", #"{"recipient":"+15550000002","message":"x","mention":"zero:1:bob"}"#)
        #expect(badMention.code == -1)
        #expect(badMention.message.hasPrefix("Invalid mention syntax"))
    }

    @Test func aDataURIAttachmentIsStagedAndSent() async throws {
        let harness = try CompatHarness()
        let bytes = Data("a picture".utf8).base64EncodedString()
        _ = try await harness.result(
            "send", #"{"recipient":"+15550000002","attachment":"data:image/png;filename=cat.png;base64,\#(bytes)"}"#)
        #expect(harness.client.calls.first == #"send("" to person bbbbbbbb-0000-4000-8000-000000000002, 1 attachment(s), queueOnly)"#)
        // Sent: its staged file is gone.
        let left = try FileManager.default.contentsOfDirectory(atPath: harness.staging.path)
        #expect(left.isEmpty)
        let malformed = try await harness.error("send", #"{"recipient":"+15550000002","attachment":"data:image/png,xyz"}"#)
        #expect(malformed.message == "Invalid attachment: a data URI must be data:<type>;base64,<data>")
    }

    @Test func refusalsLeaveNothingQueued() async throws {
        let harness = try CompatHarness()
        harness.client.addGroup("Old", id: Data(repeating: 2, count: 16), members: [RecordingClient.bob], left: true)
        let cases: [(String, Int64, String)] = [
            (#"{"message":"hi"}"#, -1, "No recipients given"),
            (#"{"recipient":"+15550000002"}"#, -1, "Sending empty message is not allowed, no message, attachments or sticker given."),
            (
                #"{"recipient":["+15550000002","+15559999999"],"message":"hi"}"#, -1,
                "The user is not registered: server refused with status 404"
            ),
            (#"{"recipient":"PNI:abc","message":"hi"}"#, -1, "Invalid recipient 'PNI:abc': Parley accounts have no PNI"),
            (#"{"groupId":"AgICAgICAgICAgICAgICAg==","message":"hi"}"#, -1, "Not a member of group Old: this account left it"),
            (#"{"groupId":"bm90IGEgcmVhbCBncm91cA==","message":"hi"}"#, -1, "Group not found: bm90IGEgcmVhbCBncm91cA=="),
            (#"{"groupId":"bm90IGEgZ3JvdXA=","message":"hi"}"#, -1, "Invalid group id: bm90IGEgZ3JvdXA="),
            (#"{"recipient":7,"message":"hi"}"#, -32602, "invalid params: recipient must be a string or a list of strings"),
            (
                #"{"recipient":"+15550000002","message":"hi","editTimestamp":"1.7e12"}"#, -32602,
                "invalid params: editTimestamp must be an integer"
            ),
        ]
        for (params, code, message) in cases {
            let error = try await harness.error("send", params)
            #expect(error.code == code, "\(params)")
            #expect(error.message == message, "\(params)")
        }
        #expect(harness.client.calls.isEmpty)
    }

    @Test func anUntrustedIdentityRateLimitAndOutageHaveSignalCLIsCodes() async throws {
        let harness = try CompatHarness()
        let failures: [(any Error, Int64)] = [
            (ParleyError.untrustedIdentity(address: RecordingClient.bob), -4),
            (ParleyError.server(.rejected(status: 429, body: nil)), -5),
            (ParleyError.server(.transport("connection refused")), -3),
            (ParleyError.invalidArgument("too long"), -1),
            (CocoaError(.fileReadNoPermission), -32603),
        ]
        for (failure, code) in failures {
            harness.client.state.withLock { $0.failure = failure }
            let error = try await harness.error("send", #"{"recipient":"+15550000002","message":"hi"}"#)
            #expect(error.code == code, "\(failure)")
        }
    }
}
