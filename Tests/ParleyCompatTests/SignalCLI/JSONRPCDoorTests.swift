import Foundation
import Testing

@testable import ParleyCompat
@testable import ParleyKit

/// The JSON-RPC door itself: the specification's error codes, batches, notifications, signal-cli's `account`
/// parameter, and Parley's own dialect beside signal-cli's.
@Suite struct JSONRPCDoorTests {
    /// The answer to `body` as JSON.
    private func answer(_ harness: CompatHarness, _ body: String) async throws -> JSONValue? {
        guard let data = await harness.session.respond(to: Data(body.utf8)) else { return nil }
        return try JSONDecoder().decode(JSONValue.self, from: data)
    }

    private func code(_ value: JSONValue?) -> Int64? {
        guard case .object(let fields)? = value, case .object(let error)? = fields["error"] else { return nil }
        return error["code"]?.integer
    }

    @Test func theSpecificationsErrorsHaveTheirCodes() async throws {
        let harness = try CompatHarness()
        #expect(code(try await answer(harness, "{not json")) == -32700)
        #expect(code(try await answer(harness, #"{"jsonrpc":"1.0","id":1,"method":"version"}"#)) == -32600)
        #expect(code(try await answer(harness, #"{"jsonrpc":"2.0","id":1}"#)) == -32600)
        #expect(code(try await answer(harness, #"[]"#)) == -32600)
        #expect(code(try await answer(harness, #"{"jsonrpc":"2.0","id":1,"method":"sendSticker","params":{}}"#)) == -32601)
        #expect(code(try await answer(harness, #"{"jsonrpc":"2.0","id":1,"method":"send","params":{"message":true}}"#)) == -32602)
    }

    @Test func aBatchIsAnsweredInOrderAndNotificationsAreNot() async throws {
        let harness = try CompatHarness()
        let answers = try await answer(
            harness,
            #"[{"jsonrpc":"2.0","id":"a","method":"version"},{"jsonrpc":"2.0","method":"setPin","params":{"pin":"9"}},"#
                + #"{"jsonrpc":"2.0","id":"b","method":"nope"}]"#)
        guard case .array(let list)? = answers else {
            Issue.record("not a batch answer: \(String(describing: answers))")
            return
        }
        #expect(list.count == 2)
        #expect(code(list[1]) == -32601)
        // The notification ran, and got no answer.
        #expect(harness.client.calls == ["createBackup(pin: 9)"])
        #expect(try await answer(harness, #"{"jsonrpc":"2.0","method":"removePin"}"#) == nil)
        let tooLong = try await answer(
            harness, "[" + Array(repeating: #"{"jsonrpc":"2.0","id":1,"method":"version"}"#, count: 101).joined(separator: ",") + "]")
        #expect(code(tooLong) == -32600)
    }

    @Test func theAccountParameterPicksOneInMultiAccountMode() async throws {
        let client = RecordingClient()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("compat-\(UUID().uuidString)")
        let account = try DaemonAccount(name: "me", client: client, staging: StagedAttachments(folder: folder))
        let accounts = DaemonAccounts(all: [account, account], multiAccount: true, peers: DaemonPeers())
        let session = DaemonSession(accounts: accounts, transport: .lines) { _ in }
        func ask(_ params: String) async throws -> JSONValue {
            let body = #"{"jsonrpc":"2.0","id":1,"method":"listDevices","params":\#(params)}"#
            return try JSONDecoder().decode(JSONValue.self, from: try #require(await session.respond(to: Data(body.utf8))))
        }
        #expect(code(try await ask(#"{"account":"+15550000001"}"#)) == nil)
        #expect(code(try await ask(#"{"account":"\#(RecordingClient.me)"}"#)) == nil)
        #expect(code(try await ask(#"{"account":"+15550000009"}"#)) == -32602)
        #expect(code(try await ask(#"{}"#)) == -32602)
    }

    @Test func parleysOwnDialectSitsBesideSignalCLIs() async throws {
        let harness = try CompatHarness()
        let sent = try await harness.result("send", #"{"recipient":"15550000002","text":"hi there"}"#)
        #expect(sent == json(#"{"messageId":1,"sent":1,"failed":0}"#))
        #expect(harness.client.calls == [#"send("hi there" to person \#(RecordingClient.bob), dueJobs)"#])
        #expect(try await harness.result("receive") == json(#"{"received":0}"#))
        #expect(harness.client.calls.suffix(2) == ["receive(queueOnly, maintainingKeys: false)", "sendQueued(dueJobs)"])
        guard case .array(let conversations) = try await harness.result("conversations") else {
            Issue.record("not a list")
            return
        }
        #expect(conversations.count == 2)
        // A conversation's id keeps its JSON name from earlier releases, `threadId`, for scripts that read it.
        guard case .object(let first)? = conversations.first else {
            Issue.record("not an object")
            return
        }
        #expect(first["threadId"] == .integer(1))
        harness.client.add(from: RecordingClient.bob, at: 1_600_000_000_000, body: "old news")
        guard case .object(let page) = try await harness.result("history", #"{"recipient":"15550000002","limit":5}"#),
            case .array(let messages)? = page["messages"]
        else {
            Issue.record("not a page")
            return
        }
        #expect(messages.count == 2)
        #expect(messages.allSatisfy { if case .object(let fields) = $0 { fields["threadId"] == .integer(1) } else { false } })
        #expect(
            try await harness.error("history", #"{"recipient":"15550000002","limit":501}"#).message == "invalid params: limit must be 1…500"
        )
        #expect(
            try await harness.result("safetyNumber", #"{"recipient":"carol"}"#)
                == json(#"{"safetyNumber":"12345 67890 12345 67890 12345 67890\n12345 67890 12345 67890 12345 67890"}"#))
        #expect(try await harness.result("trust", #"{"recipient":"carol"}"#) == json(#"{"trusted":"\#(RecordingClient.carol)"}"#))
        #expect(harness.client.calls.last == "acceptIdentity(of: \(RecordingClient.carol))")
        guard case .array(let devices) = try await harness.result("devices") else {
            Issue.record("not a list")
            return
        }
        #expect(devices.count == 1)
        #expect(try await harness.result("subscribeReceive") == .integer(0))
        #expect(try await harness.error("history", #"{}"#).message == "invalid params: recipient is required")
    }
}
