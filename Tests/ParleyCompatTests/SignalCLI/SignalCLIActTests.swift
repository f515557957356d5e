import Foundation
import Testing

@testable import ParleyCompat
@testable import ParleyKit

/// signal-cli's acts on earlier messages and on the conversation: `sendReaction`, `sendReceipt`, `sendTyping`,
/// `remoteDelete`.
@Suite struct SignalCLIActTests {
    let bob = address(RecordingClient.bob, "15550000002")
    let carol = address(RecordingClient.carol, "carol")

    @Test func aReactionNamesItsMessageByAuthorAndTimestamp() async throws {
        let harness = try CompatHarness()
        let target = harness.client.add(from: RecordingClient.bob, at: 1_600_000_000_000)
        let result = try await harness.result(
            "sendReaction", #"{"recipient":"+15550000002","emoji":"👍","targetAuthor":"+15550000002","targetTimestamp":1600000000000}"#)
        #expect(harness.client.calls == ["react(👍, to: \(target.id), remove: false, dueJobs)"])
        #expect(result == json(#"{"timestamp":1700000000000,"results":[{"recipientAddress":\#(bob),"type":"SUCCESS"}]}"#))
        // The one recipient is the author when none is named; `remove` takes the reaction back.
        _ = try await harness.result(
            "sendReaction", #"{"recipient":"+15550000002","emoji":"👍","targetTimestamp":1600000000000,"remove":true}"#)
        #expect(harness.client.calls.last == "react(👍, to: \(target.id), remove: true, dueJobs)")
    }

    @Test func aReactionWithoutItsPartsIsRefused() async throws {
        let harness = try CompatHarness()
        harness.client.add(from: RecordingClient.bob, at: 1_600_000_000_000)
        let cases: [(String, Int64, String)] = [
            (#"{"recipient":"+15550000002","targetTimestamp":1600000000000}"#, -1, "Emoji parameter is missing"),
            (#"{"recipient":"+15550000002","emoji":"👍"}"#, -1, "Target timestamp parameter is missing"),
            (#"{"recipients":["+15550000002","u:carol"],"emoji":"👍","targetTimestamp":1}"#, -1, "Target author parameter is missing"),
            (#"{"recipient":"+15550000002","emoji":"👍","targetTimestamp":7}"#, -1, "Target message not found: +15550000002 at 7"),
            (
                #"{"recipient":"+15550000002","emoji":"👍","targetTimestamp":1600000000000,"remove":"yes"}"#, -32602,
                "invalid params: remove must be true or false"
            ),
        ]
        for (params, code, message) in cases {
            let error = try await harness.error("sendReaction", params)
            #expect(error.code == code, "\(params)")
            #expect(error.message == message, "\(params)")
        }
        #expect(harness.client.calls.isEmpty)
    }

    @Test func aReadReceiptMarksThoseMessagesRead() async throws {
        let harness = try CompatHarness()
        let first = harness.client.add(from: RecordingClient.bob, at: 1_600_000_000_001)
        let second = harness.client.add(from: RecordingClient.bob, at: 1_600_000_000_002)
        let result = try await harness.result(
            "sendReceipt", #"{"recipient":"+15550000002","targetTimestamps":[1600000000001,"1600000000002"],"type":"read"}"#)
        #expect(harness.client.calls == ["markRead([\(first.id), \(second.id)], dueJobs)"])
        guard case .object(let fields) = result else {
            Issue.record("not an object: \(result)")
            return
        }
        #expect(fields["results"] == json(#"[{"recipientAddress":\#(bob),"type":"SUCCESS"}]"#))
        #expect((fields["timestamp"]?.integer ?? 0) > 0)
    }

    @Test func aViewedReceiptOrOneWithoutTargetsIsRefused() async throws {
        let harness = try CompatHarness()
        harness.client.add(from: RecordingClient.bob, at: 1_600_000_000_001)
        let viewed = try await harness.error(
            "sendReceipt", #"{"recipient":"+15550000002","targetTimestamp":1600000000001,"type":"viewed"}"#)
        #expect(viewed.message == "Parley sends read receipts only, not viewed receipts")
        let none = try await harness.error("sendReceipt", #"{"recipient":"+15550000002"}"#)
        #expect(none.message == "Target timestamp parameter is missing")
        let noRecipient = try await harness.error("sendReceipt", #"{"targetTimestamp":1600000000001}"#)
        #expect(noRecipient.message == "Recipient parameter is missing")
        let tooMany = try await harness.error(
            "sendReceipt", #"{"recipient":"+15550000002","targetTimestamps":[\#((0...1_000).map(String.init).joined(separator: ","))]}"#)
        #expect(tooMany.message == "At most 1000 target timestamps per call")
        #expect(harness.client.calls.isEmpty)
    }

    @Test func typingGoesToPeopleAndToEachGroupMember() async throws {
        let harness = try CompatHarness()
        let group = harness.client.addGroup("Team", id: Data(repeating: 3, count: 16), members: [RecordingClient.carol])
        let id = GroupID(group.id).base64
        let result = try await harness.result("sendTyping", #"{"recipient":"+15550000002","groupId":"\#(id)"}"#)
        #expect(harness.client.calls == ["sendTyping(started, to: \(RecordingClient.bob))", "sendTyping(started, toGroup: \(id))"])
        guard case .object(let fields) = result else {
            Issue.record("not an object: \(result)")
            return
        }
        #expect(
            fields["results"]
                == json(
                    #"[{"recipientAddress":\#(bob),"type":"SUCCESS"},{"recipientAddress":\#(carol),"type":"SUCCESS","groupId":"\#(id)"}]"#))
        _ = try await harness.result("sendTyping", #"{"recipient":"+15550000002","stop":true}"#)
        #expect(harness.client.calls.last == "sendTyping(stopped, to: \(RecordingClient.bob))")
    }

    @Test func typingThatReachesNobodyIsANetworkFailure() async throws {
        let harness = try CompatHarness()
        harness.client.state.withLock { $0.typingReaches = false }
        let error = try await harness.error("sendTyping", #"{"recipient":"+15550000002"}"#)
        #expect(error.code == -1)
        #expect(error.message == "Failed to send message")
        let none = try await harness.error("sendTyping", #"{}"#)
        #expect(none.message == "No recipients given")
    }

    @Test func aRemoteDeleteNamesThisAccountsMessage() async throws {
        let harness = try CompatHarness()
        let own = harness.client.add(from: RecordingClient.me, at: 1_600_000_000_000)
        let result = try await harness.result("remoteDelete", #"{"recipient":"+15550000002","targetTimestamp":1600000000000}"#)
        #expect(harness.client.calls == ["deleteForEveryone(\(own.id), dueJobs)"])
        #expect(result == json(#"{"timestamp":1700000000000,"results":[{"recipientAddress":\#(bob),"type":"SUCCESS"}]}"#))
        harness.client.add(from: RecordingClient.bob, at: 1_600_000_000_009)
        let others = try await harness.error("remoteDelete", #"{"recipient":"+15550000002","targetTimestamp":1600000000009}"#)
        #expect(others.message == "Target message not found: this account's message at 1600000000009")
        let missing = try await harness.error("remoteDelete", #"{"recipient":"+15550000002"}"#)
        #expect(missing.message == "Target timestamp parameter is missing")
        let negative = try await harness.error("remoteDelete", #"{"recipient":"+15550000002","targetTimestamp":-4}"#)
        #expect(negative.message == "Invalid timestamp -4")
    }

    @Test func anActStillQueuedAnswersNetworkFailure() async throws {
        let harness = try CompatHarness()
        let own = harness.client.add(from: RecordingClient.me, at: 1_600_000_000_000)
        harness.client.state.withLock { $0.statusAfterJobs = .sending }
        let error = try await harness.error("remoteDelete", #"{"recipient":"+15550000002","targetTimestamp":1600000000000}"#)
        #expect(harness.client.calls == ["deleteForEveryone(\(own.id), dueJobs)"])
        #expect(
            error.data
                == json(
                    #"{"response":{"timestamp":1700000000000,"results":[{"recipientAddress":\#(bob),"type":"NETWORK_FAILURE"}]}}"#))
    }
}
