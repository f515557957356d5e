import Foundation
import Testing

@testable import ParleyCompat
@testable import ParleyKit

/// signal-cli-rest-api's group routes, on signal-cli's `listGroups`, `updateGroup` and `quitGroup`.
@Suite struct RestAPIGroupRoutesTests {
    @Test func groupsAreListedAndFoundByTheirRESTID() async throws {
        let harness = try CompatHarness()
        let group = harness.client.addGroup(
            "Team", id: Data(repeating: 4, count: 16), members: [RecordingClient.bob, RecordingClient.carol])
        let signalCLIID = GroupID(group.id).base64
        let restID = RestAPIGroupID.restForm(of: signalCLIID)
        let everyone = #"{"add_members":"every-member","edit_group":"every-member","send_messages":"every-member"}"#
        let entry = json(
            #"{"name":"Team","description":"","id":"\#(restID)","internal_id":"\#(signalCLIID)","#
                + #""members":["+15550000001","+15550000002","\#(RecordingClient.carol)"],"blocked":false,"member":true,"#
                + #""pending_invites":[],"pending_requests":[],"invite_link":"","admins":[],"permissions":\#(everyone)}"#)
        try await harness.rest { rest async throws in
            #expect(try await rest.call(.get, "/v1/groups/+15550000001").body == .array([entry]))
            #expect(try await rest.call(.get, "/v1/groups/+15550000001/\(restID)").body == entry)
            let missing = try await rest.call(.get, "/v1/groups/+15550000001/group.bm9uZQ==")
            #expect(missing.status == .notFound)
            #expect(missing.body == restError("No group with that id found"))
        }
    }

    @Test func aServerStoredGroupsAdminsLinkAndPermissionsGoThroughTheirRoutes() async throws {
        let harness = try CompatHarness()
        let group = harness.client.addGroup(
            "Board", id: Data(repeating: 7, count: 32), members: [RecordingClient.bob], serverStored: true)
        let signalCLIID = GroupID(group.id).base64
        let path = "/v1/groups/+15550000001/" + RestAPIGroupID.restForm(of: signalCLIID)
        try await harness.rest { rest async throws in
            #expect(try await rest.call(.post, path + "/admins", #"{"admins":["+15550000002"]}"#).status == .noContent)
            #expect(try await rest.call(.delete, path + "/admins", #"{"admins":["+15550000002"]}"#).status == .noContent)
            let changed = try await rest.call(
                .put, path, #"{"group_link":"enabled","permissions":{"add_members":"only-admins","edit_group":"every-member"}}"#)
            #expect(changed.status == .noContent)
            #expect(try await rest.call(.post, path + "/admins", #"{}"#).body == restError("Couldn't process request - admins missing"))
        }
        #expect(
            harness.client.calls == [
                "setGroupAdministrator(\(signalCLIID), person: \(RecordingClient.bob), revoke: false, dueJobs)",
                "setGroupAdministrator(\(signalCLIID), person: \(RecordingClient.bob), revoke: true, dueJobs)",
                "setGroupPermissions(\(signalCLIID), addMembers: Optional(ParleyKit.ServerGroupDetails.Access.admins), editDetails: Optional(ParleyKit.ServerGroupDetails.Access.members), sendMessages: nil, dueJobs)",
                "setGroupLink(\(signalCLIID), access: open, reset: false, dueJobs)",
            ])
    }

    @Test func aGroupIsMadeRenamedGrownShrunkAndLeft() async throws {
        let harness = try CompatHarness()
        let group = harness.client.addGroup("Team", id: Data(repeating: 5, count: 16), members: [RecordingClient.bob])
        let signalCLIID = GroupID(group.id).base64
        let restID = RestAPIGroupID.restForm(of: signalCLIID)
        let newID = RestAPIGroupID.restForm(of: GroupID(Data(repeating: 11, count: 16)).base64)
        try await harness.rest { rest async throws in
            let made = try await rest.call(.post, "/v1/groups/+15550000001", #"{"name":"Climbing","members":["+15550000002"]}"#)
            #expect(made.status == .created)
            #expect(made.body == json(#"{"id":"\#(newID)"}"#))
            let path = "/v1/groups/+15550000001/\(restID)"
            #expect(try await rest.call(.put, path, #"{"name":"Team 2"}"#).status == .noContent)
            #expect(try await rest.call(.post, path + "/members", #"{"members":["u:carol"]}"#).status == .noContent)
            #expect(try await rest.call(.delete, path + "/members", #"{"members":["+15550000002"]}"#).status == .noContent)
            #expect(try await rest.call(.post, path + "/quit").status == .noContent)
            #expect(try await rest.call(.delete, path).status == .ok)
            let noName = try await rest.call(.post, "/v1/groups/+15550000001", #"{"members":[]}"#)
            #expect(noName.body == restError("Couldn't process request - group name missing"))
            let noMembers = try await rest.call(.post, path + "/members", #"{}"#)
            #expect(noMembers.body == restError("Couldn't process request - members missing"))
            let badID = try await rest.call(.post, "/v1/groups/+15550000001/nogroup/quit")
            #expect(badID.body == restError("Invalid group id nogroup"))
        }
        #expect(
            harness.client.calls == [
                #"createGroup("Climbing", members: ["\#(RecordingClient.bob)"], dueJobs)"#,
                #"updateGroup(\#(signalCLIID), title: Optional("Team 2"), adding: [], removing: [], dueJobs)"#,
                #"updateGroup(\#(signalCLIID), title: nil, adding: ["\#(RecordingClient.carol)"], removing: [], dueJobs)"#,
                #"updateGroup(\#(signalCLIID), title: nil, adding: [], removing: ["\#(RecordingClient.bob)"], dueJobs)"#,
                "leaveGroup(\(signalCLIID), dueJobs)", "leaveGroup(\(signalCLIID), dueJobs)",
            ])
    }
}
