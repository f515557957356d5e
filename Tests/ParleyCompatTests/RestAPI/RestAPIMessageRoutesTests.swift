import Foundation
import Testing

@testable import ParleyCompat
@testable import ParleyKit

/// signal-cli-rest-api's message routes: each is one signal-cli call on the same handlers, its answer in that API's shape.
@Suite struct RestAPIMessageRoutesTests {
    @Test func healthAboutAndTheReceiveAddress() async throws {
        let harness = try CompatHarness()
        try await harness.rest { rest async throws in
            #expect(try await rest.call(.get, "/v1/health").status == .noContent)
            let about = try await rest.call(.get, "/v1/about")
            #expect(
                about.body
                    == json(
                        #"{"versions":["v1","v2"],"build":2,"mode":"json-rpc","version":"unset","capabilities":{"v2/send":["quotes","mentions"]}}"#
                    ))
            let receive = try await rest.call(.get, "/v1/receive/+15550000001")
            #expect(receive.status == .badRequest)
            #expect(
                receive.body
                    == restError("In json-rpc mode, messages are received over a WebSocket: connect to this address with an Upgrade"))
        }
    }

    @Test func v2SendIsOneSignalCLISendForEveryRecipient() async throws {
        let harness = try CompatHarness()
        let group = harness.client.addGroup("Team", id: Data(repeating: 1, count: 16), members: [RecordingClient.carol])
        let signalCLIID = GroupID(group.id).base64
        let restID = RestAPIGroupID.restForm(of: signalCLIID)
        let picture = Data("png".utf8).base64EncodedString()
        try await harness.rest { rest async throws in
            let sent = try await rest.call(
                .post, "/v2/send",
                #"{"number":"+15550000001","recipients":["+15550000002","\#(restID)","\#(restID)"],"message":"hi","#
                    + #""base64_attachments":["\#(picture)"],"mentions":[{"author":"u:carol","start":0,"length":2}]}"#)
            #expect(sent.status == .created)
            #expect(sent.body == json(#"[{"timestamp":"1700000000000"}]"#))
        }
        let mention = #"mentions ["0:2:\#(RecordingClient.carol)"]"#
        #expect(
            harness.client.calls == [
                #"send("hi" to person \#(RecordingClient.bob), 1 attachment(s), \#(mention), queueOnly)"#,
                #"send("hi" to group \#(signalCLIID), 1 attachment(s), \#(mention), queueOnly)"#, "sendQueued(dueJobs)",
            ])
    }

    @Test func v2SendRefusals() async throws {
        let harness = try CompatHarness()
        try await harness.rest { rest async throws in
            let cases: [(String, String)] = [
                (#"{"recipients":["+15550000002"],"message":"hi"}"#, "number is required"),
                (#"{"number":"+15550000001","message":"hi"}"#, "Couldn't process request - please provide at least one recipient"),
                (
                    #"{"number":"+15550000001","recipients":["+15550000002"],"message":"hi","view_once":true}"#,
                    "Couldn't process request - Parley does not send view-once attachments"
                ),
                (
                    #"{"number":"+15550000001","recipients":["+15550000002"],"message":"hi","mentions":{"author":"x"}}"#,
                    "Couldn't process request - mentions must be a list"
                ),
                (
                    #"{"number":"+15550000001","recipients":["+15550000002"],"message":"hi","mentions":[{"author":"u:carol"}]}"#,
                    "Couldn't process request - a mention needs author, start and length"
                ),
                (#"{"number":"+15550000001","recipients":["group.!!"],"message":"hi"}"#, "Invalid group id group.!!"),
                (
                    #"{"number":"+15550000009","recipients":["+15550000002"],"message":"hi"}"#,
                    "Unknown account +15550000009: this server serves +15550000001"
                ),
                (#"["not an object"]"#, "Couldn't process request - invalid request: the body is not a JSON object"),
                (
                    #"{"number":"+15550000001","recipients":["+15559999999"],"message":"hi"}"#,
                    "The user is not registered: server refused with status 404"
                ),
            ]
            for (body, message) in cases {
                let answer = try await rest.call(.post, "/v2/send", body)
                #expect(answer.status == .badRequest, "\(body)")
                #expect(answer.body == restError(message), "\(body)")
            }
        }
        #expect(harness.client.calls.isEmpty)
    }

    @Test func v1SendTakesOneAttachmentAndIsGroup() async throws {
        let harness = try CompatHarness()
        let group = harness.client.addGroup("Team", id: Data(repeating: 2, count: 16), members: [RecordingClient.carol])
        let signalCLIID = GroupID(group.id).base64
        let bare = Data(signalCLIID.utf8).base64EncodedString()
        try await harness.rest { rest async throws in
            let sent = try await rest.call(
                .post, "/v1/send",
                #"{"number":"+15550000001","recipients":["\#(bare)"],"is_group":true,"message":"yo","base64_attachment":"AAAA"}"#)
            #expect(sent.status == .created)
            #expect(sent.body == json(#"{"timestamp":"1700000000000"}"#))
        }
        #expect(harness.client.calls.first == #"send("yo" to group \#(signalCLIID), 1 attachment(s), queueOnly)"#)
    }

    @Test func reactionsReceiptsTypingAndRemoteDelete() async throws {
        let harness = try CompatHarness()
        let theirs = harness.client.add(from: RecordingClient.bob, at: 1_600_000_000_000)
        let own = harness.client.add(from: RecordingClient.me, at: 1_600_000_000_500)
        try await harness.rest { rest async throws in
            let reaction = #"{"recipient":"+15550000002","reaction":"🎉","target_author":"+15550000002","timestamp":1600000000000}"#
            #expect(try await rest.call(.post, "/v1/reactions/+15550000001", reaction).status == .noContent)
            #expect(try await rest.call(.delete, "/v1/reactions/+15550000001", reaction).status == .noContent)
            #expect(
                try await rest.call(.post, "/v1/receipts/+15550000001", #"{"recipient":"+15550000002","timestamp":1600000000000}"#).status
                    == .noContent)
            #expect(try await rest.call(.put, "/v1/typing-indicator/+15550000001", #"{"recipient":"+15550000002"}"#).status == .noContent)
            #expect(
                try await rest.call(.delete, "/v1/typing-indicator/+15550000001", #"{"recipient":"+15550000002"}"#).status == .noContent)
            let deleted = try await rest.call(
                .delete, "/v1/remote-delete/+15550000001", #"{"recipient":"+15550000002","timestamp":1600000000500}"#)
            #expect(deleted.status == .created)
            #expect(deleted.body == json(#"{"timestamp":"1700000000002"}"#))
            let noRecipient = try await rest.call(.put, "/v1/typing-indicator/+15550000001", #"{}"#)
            #expect(noRecipient.body == restError("Couldn't process request - recipient missing"))
            let viewed = try await rest.call(
                .post, "/v1/receipts/+15550000001", #"{"recipient":"+15550000002","timestamp":1600000000000,"receipt_type":"viewed"}"#)
            #expect(viewed.body == restError("Parley sends read receipts only, not viewed receipts"))
        }
        #expect(
            harness.client.calls == [
                "react(🎉, to: \(theirs.id), remove: false, dueJobs)", "react(🎉, to: \(theirs.id), remove: true, dueJobs)",
                "markRead([\(theirs.id)], dueJobs)", "sendTyping(started, to: \(RecordingClient.bob))",
                "sendTyping(stopped, to: \(RecordingClient.bob))", "deleteForEveryone(\(own.id), dueJobs)",
            ])
    }

    @Test func aGroupRecipientOfAnActIsItsSignalCLIID() async throws {
        let harness = try CompatHarness()
        let group = harness.client.addGroup("Team", id: Data(repeating: 3, count: 16), members: [RecordingClient.carol])
        let restID = RestAPIGroupID.restForm(of: GroupID(group.id).base64)
        try await harness.rest { rest async throws in
            let typing = #"{"recipient":"\#(restID)"}"#
            #expect(try await rest.call(.put, "/v1/typing-indicator/+15550000001", typing).status == .noContent)
        }
        #expect(harness.client.calls == ["sendTyping(started, toGroup: \(GroupID(group.id).base64))"])
    }

    @Test func everyUnsupportedRouteAnswers501NamingIt() async throws {
        let harness = try CompatHarness()
        try await harness.rest { rest async throws in
            for (method, path) in RestAPIRoutes.unsupportedRoutes {
                let uri = path.replacingOccurrences(of: ":number", with: "+15550000001").replacingOccurrences(of: ":", with: "x")
                let answer = try await rest.call(method, uri)
                #expect(answer.status == .notImplemented, "\(method) \(path)")
                #expect(
                    answer.body == restError("\(method.rawValue) \(path) is not supported by Parley's signal-cli-rest-api surface"),
                    "\(method) \(path)")
            }
        }
    }

    @Test func aWebPageIsRefused() async throws {
        let harness = try CompatHarness()
        try await harness.rest { rest async throws in
            let answer = try await rest.call(.get, "/v1/about", headers: [.init("Origin")!: "https://evil.example"])
            #expect(answer.status == .forbidden)
        }
    }

    @Test func failuresHaveSignalCLIRestAPIsStatuses() async throws {
        let harness = try CompatHarness()
        try await harness.rest { rest async throws in
            harness.client.state.withLock { $0.failure = ParleyError.untrustedIdentity(address: RecordingClient.bob) }
            let untrusted = try await rest.call(
                .post, "/v2/send", #"{"number":"+15550000001","recipients":["+15550000002"],"message":"hi"}"#)
            #expect(untrusted.status == .badRequest)
            harness.client.state.withLock { $0.failure = CocoaError(.fileWriteOutOfSpace) }
            let ours = try await rest.call(.post, "/v2/send", #"{"number":"+15550000001","recipients":["+15550000002"],"message":"hi"}"#)
            #expect(ours.status == .internalServerError)
        }
    }
}
