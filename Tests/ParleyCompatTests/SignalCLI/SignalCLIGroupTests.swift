import Foundation
import Testing

@testable import ParleyCompat
@testable import ParleyKit

/// signal-cli's group methods: `listGroups`, `updateGroup` (making, renaming, members), `quitGroup`.
@Suite struct SignalCLIGroupTests {
    @Test func groupsAreListedInSignalCLIsShape() async throws {
        let harness = try CompatHarness()
        let team = harness.client.addGroup("Team", id: Data(repeating: 4, count: 16), members: [RecordingClient.carol])
        harness.client.addGroup("Old", id: Data(repeating: 5, count: 16), members: [RecordingClient.bob], left: true)
        let id = GroupID(team.id).base64
        let me = #"{"number":"+15550000001","uuid":"\#(RecordingClient.me)","isAdmin":false}"#
        let carol = #"{"number":null,"uuid":"\#(RecordingClient.carol)","isAdmin":false}"#
        let result = try await harness.result("listGroups", #"{"groupId":"\#(id)"}"#)
        #expect(
            result
                == json(
                    #"[{"id":"\#(id)","name":"Team","description":"","isMember":true,"isBlocked":false,"messageExpirationTime":0,"#
                        + #""members":[\#(me),\#(carol)],"pendingMembers":[],"requestingMembers":[],"admins":[],"banned":[],"#
                        + #""permissionAddMember":"EVERY_MEMBER","permissionEditDetails":"EVERY_MEMBER","permissionSendMessage":"EVERY_MEMBER","#
                        + #""groupInviteLink":null}]"#))
        guard case .array(let all) = try await harness.result("listGroups") else {
            Issue.record("not a list")
            return
        }
        #expect(all.count == 2)
        #expect(all.contains { if case .object(let fields) = $0 { fields["isMember"] == .bool(false) } else { false } })
        let bad = try await harness.error("listGroups", #"{"groupId":"nope"}"#)
        #expect(bad.code == -1)
        #expect(harness.client.calls.isEmpty)
    }

    @Test func updateGroupWithoutAnIdMakesOne() async throws {
        let harness = try CompatHarness()
        let result = try await harness.result("updateGroup", #"{"name":"Climbing","members":["+15550000002","u:carol"]}"#)
        #expect(
            harness.client.calls == [
                #"createGroup("Climbing", members: ["\#(RecordingClient.bob)", "\#(RecordingClient.carol)"], dueJobs)"#
            ])
        guard case .object(let fields) = result else {
            Issue.record("not an object: \(result)")
            return
        }
        #expect(fields["groupId"] == .string(GroupID(Data(repeating: 10, count: 16)).base64))
        #expect(fields["results"] == .array([]))
    }

    @Test func updateGroupRenamesAddsAndRemoves() async throws {
        let harness = try CompatHarness()
        let group = harness.client.addGroup("Team", id: Data(repeating: 6, count: 16), members: [RecordingClient.bob])
        let id = GroupID(group.id).base64
        _ = try await harness.result(
            "updateGroup", #"{"groupId":"\#(id)","name":"Team 2","member":"u:carol","removeMember":["+15550000002"]}"#)
        #expect(
            harness.client.calls == [
                #"updateGroup(\#(id), title: Optional("Team 2"), adding: ["\#(RecordingClient.carol)"], removing: ["\#(RecordingClient.bob)"], dueJobs)"#
            ])
        // The same name is no rename.
        _ = try await harness.result("updateGroup", #"{"groupId":"\#(id)","name":"Team"}"#)
        #expect(harness.client.calls.last == #"updateGroup(\#(id), title: nil, adding: [], removing: [], dueJobs)"#)
    }

    @Test func updateGroupRefusesWhatParleyCannotDo() async throws {
        let harness = try CompatHarness()
        let timer = try await harness.error("updateGroup", #"{"name":"x","expiration":3600}"#)
        #expect(timer.message == "Parley cannot set a group's disappearing-message timer yet")
        let unknown = try await harness.error("updateGroup", #"{"name":"x","member":"+15559999999"}"#)
        #expect(unknown.message.hasPrefix("The user is not registered"))
        let tooMany = try await harness.error(
            "updateGroup", #"{"name":"x","member":[\#((0...GroupContext.maximumMembers).map { #""u:\#($0)""# }.joined(separator: ","))]}"#)
        #expect(tooMany.message == "A group has at most \(GroupContext.maximumMembers) members")
        #expect(harness.client.calls.isEmpty)
    }

    @Test func quitGroupLeavesOnce() async throws {
        let harness = try CompatHarness()
        let group = harness.client.addGroup("Team", id: Data(repeating: 7, count: 16), members: [RecordingClient.bob])
        let old = harness.client.addGroup("Old", id: Data(repeating: 8, count: 16), members: [RecordingClient.bob], left: true)
        let id = GroupID(group.id).base64
        let result = try await harness.result("quitGroup", #"{"groupId":"\#(id)"}"#)
        #expect(harness.client.calls == ["leaveGroup(\(id), dueJobs)"])
        guard case .object(let fields) = result else {
            Issue.record("not an object: \(result)")
            return
        }
        #expect(fields["results"] == .array([]))
        // A group already left answers `{}` and sends nothing.
        #expect(try await harness.result("quitGroup", #"{"groupId":"\#(GroupID(old.id).base64)"}"#) == .object([:]))
        #expect(harness.client.calls.count == 1)
        let missing = try await harness.error("quitGroup")
        #expect(missing.message == "Group id parameter is missing")
        // Parley's hex form names a group too.
        _ = try await harness.result("quitGroup", #"{"groupId":"\#(GroupID(group.id).hex)"}"#)
        #expect(harness.client.calls.count == 2)
    }

    @Test func aServerStoredGroupsAdministratorsBansLinkAndPermissionsMapToTheirVerbs() async throws {
        let harness = try CompatHarness()
        let group = harness.client.addGroup(
            "Board", id: Data(repeating: 6, count: 32), members: [RecordingClient.bob], serverStored: true)
        let id = GroupID(group.id).base64
        _ = try await harness.result(
            "updateGroup",
            #"{"groupId":"\#(id)","admin":"+15550000002","ban":["u:carol"],"link":"enabled-with-approval","resetLink":true,"#
                + #""setPermissionAddMember":"only-admins","setPermissionSendMessages":"every-member"}"#)
        #expect(
            harness.client.calls == [
                "setGroupAdministrator(\(id), person: \(RecordingClient.bob), revoke: false, dueJobs)",
                "banFromGroup(\(id), person: \(RecordingClient.carol), lift: false, dueJobs)",
                "setGroupPermissions(\(id), addMembers: Optional(ParleyKit.ServerGroupDetails.Access.admins), editDetails: nil, sendMessages: Optional(ParleyKit.ServerGroupDetails.Access.members), dueJobs)",
                "setGroupLink(\(id), access: approval, reset: true, dueJobs)",
            ])
        // A permission signal-cli does not have is refused before anything changes.
        let bad = try await harness.error("updateGroup", #"{"groupId":"\#(id)","setPermissionEditDetails":"everyone"}"#)
        #expect(bad.code == -1 && harness.client.calls.count == 4)
    }

    @Test func aClientManagedGroupHasNoAdministratorsOrLinks() async throws {
        let harness = try CompatHarness()
        let group = harness.client.addGroup("Team", id: Data(repeating: 4, count: 16), members: [RecordingClient.carol])
        let error = try await harness.error("updateGroup", #"{"groupId":"\#(GroupID(group.id).base64)","link":"enabled"}"#)
        #expect(error.code == -1 && error.message.contains("client-managed"))
        #expect(harness.client.calls.isEmpty)
    }

    @Test func joinGroupJoinsByTheLink() async throws {
        let harness = try CompatHarness()
        let result = try await harness.result("joinGroup", #"{"uri":"https://parley.link/group/#abc"}"#)
        #expect(harness.client.calls == ["joinGroup(https://parley.link/group/#abc, dueJobs)"])
        guard case .object(let fields) = result else {
            Issue.record("not an object: \(result)")
            return
        }
        #expect(
            fields["groupId"] == .string(GroupID(Data(repeating: 9, count: 32)).base64) && fields["pendingAdminApproval"] == .bool(false))
        #expect(try await harness.error("joinGroup", "{}").code == -1)
    }
}
