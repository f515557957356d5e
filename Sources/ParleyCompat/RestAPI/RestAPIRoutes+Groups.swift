import Foundation
import HTTPTypes
import Hummingbird
import ParleyKit
import ParleyLocalService

/// signal-cli-rest-api's group routes: list, create, rename, add and remove members, administrators, the invite link
/// and permissions (server-stored groups), leave (`quit`, or `DELETE`, which signal-cli-rest-api's json-rpc mode also
/// turns into leaving). Group ids are that API's (``RestAPIGroupID``).
extension RestAPIRoutes {
    /// Adds the group routes to `router`.
    func addGroupRoutes(to router: Router<LocalRequestContext>) {
        router.get("/v1/groups/:number") { _, context in
            try await handle { try Self.json(try await groups(of: try account(context))) }
        }
        router.get("/v1/groups/:number/:group") { _, context in
            try await handle {
                let wanted = try context.parameters.require("group")
                let all = try await groups(of: try account(context))
                guard case .array(let entries) = all,
                    let entry = entries.first(where: { if case .object(let fields) = $0 { fields["id"] == .string(wanted) } else { false } }
                    )
                else { return try Self.error("No group with that id found", status: .notFound) }
                return try Self.json(entry)
            }
        }
        router.post("/v1/groups/:number") { request, context in
            try await handle {
                let body = try await Self.body(request)
                guard body["name"]?.string != nil else { return try Self.error("Couldn't process request - group name missing") }
                let result = try await call(
                    "updateGroup", on: try account(context),
                    [
                        "name": body["name"] ?? .null, "member": body["members"] ?? .array([]),
                    ])
                guard case .object(let fields) = result, let id = fields["groupId"]?.string else {
                    return try Self.error("no group was made")
                }
                return try Self.json(.object(["id": .string(RestAPIGroupID.restForm(of: id))]), status: .created)
            }
        }
        forward(router, .put, "/v1/groups/:number/:group", to: "updateGroup") { body, context in
            var params: [String: JSONValue] = ["groupId": .string(try Self.groupID(context)), "name": body["name"] ?? .null]
            // A server-stored group's link and permissions, in signal-cli-rest-api's words.
            if let link = body["group_link"], link != .null { params["link"] = link }
            if case .object(let permissions) = body["permissions"] {
                for (rest, signalCLI) in [
                    ("add_members", "setPermissionAddMember"), ("edit_group", "setPermissionEditDetails"),
                    ("send_messages", "setPermissionSendMessages"),
                ] {
                    if let value = permissions[rest], value != .null { params[signalCLI] = value }
                }
            }
            return params
        }
        for (method, parameter) in [(HTTPRequest.Method.post, "admin"), (.delete, "removeAdmin")] {
            forward(router, method, "/v1/groups/:number/:group/admins", to: "updateGroup") { body, context in
                let admins = try SignalCLIParameterReader(values: body).list("admins")
                guard !admins.isEmpty else { throw JSONRPCError.userError("Couldn't process request - admins missing") }
                return ["groupId": .string(try Self.groupID(context)), parameter: .array(admins.map(JSONValue.string))]
            }
        }
        for (method, parameter) in [(HTTPRequest.Method.post, "member"), (.delete, "removeMember")] {
            forward(router, method, "/v1/groups/:number/:group/members", to: "updateGroup") { body, context in
                let members = try SignalCLIParameterReader(values: body).list("members")
                guard !members.isEmpty else { throw JSONRPCError.userError("Couldn't process request - members missing") }
                return ["groupId": .string(try Self.groupID(context)), parameter: .array(members.map(JSONValue.string))]
            }
        }
        // Leaving: `quit`, or `DELETE` (which signal-cli-rest-api's json-rpc mode also turns into leaving).
        forward(router, .post, "/v1/groups/:number/:group/quit", to: "quitGroup") { _, context in
            ["groupId": .string(try Self.groupID(context))]
        }
        forward(router, .delete, "/v1/groups/:number/:group", to: "quitGroup", answering: .ok) { _, context in
            ["groupId": .string(try Self.groupID(context))]
        }
    }

    /// signal-cli's group id for a route's `{group}` (a REST group id).
    private static func groupID(_ context: LocalRequestContext) throws -> String {
        try signalCLIGroupID(try context.parameters.require("group"))
    }

    /// `GET /v1/groups/{number}`: signal-cli's groups in signal-cli-rest-api's form.
    func groups(of account: DaemonAccount) async throws -> JSONValue {
        guard case .array(let groups) = try await call("listGroups", on: account, [:]) else { return .array([]) }
        return .array(
            groups.compactMap { group -> JSONValue? in
                guard case .object(let fields) = group, let id = fields["id"]?.string else { return nil }
                var members: [JSONValue] = []
                if case .array(let list) = fields["members"] {
                    for case .object(let address) in list {
                        if let number = address["number"], number != .null {
                            members.append(number)
                        } else if let uuid = address["uuid"] {
                            members.append(uuid)
                        }
                    }
                }
                func addresses(_ key: String) -> [JSONValue] {
                    guard case .array(let list) = fields[key] else { return [] }
                    return list.compactMap { entry in
                        guard case .object(let address) = entry else { return nil }
                        if let number = address["number"], number != .null { return number }
                        return address["uuid"]
                    }
                }
                func permission(_ key: String) -> JSONValue {
                    .string(fields[key]?.string == "ONLY_ADMINS" ? "only-admins" : "every-member")
                }
                return .object([
                    "name": fields["name"] ?? .string(""), "description": fields["description"] ?? .string(""),
                    "id": .string(RestAPIGroupID.restForm(of: id)), "internal_id": .string(id), "members": .array(members),
                    "blocked": fields["isBlocked"] ?? .bool(false), "member": fields["isMember"] ?? .bool(true),
                    "pending_invites": .array(addresses("pendingMembers")), "pending_requests": .array(addresses("requestingMembers")),
                    "invite_link": fields["groupInviteLink"]?.string.map(JSONValue.string) ?? .string(""),
                    "admins": .array(addresses("admins")),
                    "permissions": .object([
                        "add_members": permission("permissionAddMember"), "edit_group": permission("permissionEditDetails"),
                        "send_messages": permission("permissionSendMessage"),
                    ]),
                ])
            })
    }
}
