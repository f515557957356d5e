import Foundation
import Hummingbird
import ParleyKit
import ParleyLocalService

/// Groups from the page: make one (client-managed, or stored on the server), rename it, add and remove members, leave;
/// a group's members by name; a server-stored group's administrators, permissions, link and requests, and joining one
/// by its link.
extension WebAPI {
    struct NewGroup: Decodable {
        let title: String
        /// People, by username or account id.
        let members: [String]
        /// Whether the server stores the group (administrators, permissions, an invite link).
        let serverStored: Bool?
    }

    /// A server-stored group's settings an administrator changes from the page; `nil`: unchanged.
    struct GroupSettings: Decodable {
        /// `off`, `open` or `approval`.
        let link: String?
        let resetLink: Bool?
        /// `members` or `admins`.
        let addMembers: String?
        let editDetails: String?
        let sendMessages: String?
        /// An account to make an administrator, or an ordinary member again.
        let admin: String?
        let revokeAdmin: String?
        /// An account whose request to join to approve, or to deny.
        let approve: String?
        let deny: String?
    }

    struct Join: Decodable {
        let link: String
    }

    struct Joined: Encodable {
        let id: String
        let conversationId: Int64?
        let joined: Bool
    }

    /// What a server-stored group adds to its members.
    struct ServerSide: Encodable {
        let administrators: [Person]
        let invited: [Person]
        let requesting: [Person]
        let banned: [Person]
        let addMembers: String
        let editDetails: String
        let sendMessages: String
        let link: String
        let inviteLink: String?
        /// Whether this account is an administrator.
        let admin: Bool
    }

    struct GroupChange: Decodable {
        let title: String?
        let add: [String]?
        let remove: [String]?
    }

    struct Group: Encodable {
        /// The group id in hex.
        let id: String
        let conversationId: Int64
        let title: String
        let members: [Person]
        let left: Bool
        /// A server-stored group's roles, invitations, requests, permissions and link; `nil` for a client-managed group.
        let server: ServerSide?
    }

    struct Made: Encodable {
        let id: String
        let conversationId: Int64
    }

    func addGroupRoutes(to router: Router<LocalRequestContext>) {
        router.post("/api/groups") { request, _ in
            await Self.answer {
                let group = try await Self.body(NewGroup.self, of: request)
                let members = try await resolve(group.members)
                let (id, _) =
                    group.serverStored == true
                    ? try await client.createServerGroup(title: group.title, members: members, attempt: .dueJobs)
                    : try await client.createGroup(title: group.title, members: members, attempt: .dueJobs)
                guard let made = try client.group(id: id) else {
                    throw WebRequestError(status: .internalServerError, message: "no group made")
                }
                return try Self.json(Made(id: GroupID(id).hex, conversationId: made.conversationId), status: .created)
            }
        }
        router.post("/api/groups/join") { request, _ in
            await Self.answer {
                let join = try await Self.body(Join.self, of: request)
                let (id, joined, _) = try await client.joinGroup(
                    link: join.link.trimmingCharacters(in: .whitespacesAndNewlines), attempt: .dueJobs)
                return try Self.json(
                    Joined(id: GroupID(id).hex, conversationId: try client.group(id: id)?.conversationId, joined: joined), status: .created)
            }
        }
        router.get("/api/groups/:id") { _, context in
            await Self.answer {
                var group = try group(context)
                var details: ServerGroupDetails?
                if group.serverStored {
                    details = try? await client.refreshServerGroup(group.id)
                    group = try client.group(id: group.id) ?? group
                }
                let everyone = group.members + (details.map { $0.requesting + $0.banned } ?? [])
                let names = try await client.names(of: everyone)
                let person = { (id: String) in Person(accountId: id, username: names[id]) }
                let me = try client.credentials().accountId
                let server = details.map { details in
                    ServerSide(
                        administrators: details.administrators.map(person), invited: details.invited.map(person),
                        requesting: details.requesting.map(person), banned: details.banned.map(person),
                        addMembers: details.addMembers.rawValue, editDetails: details.editDetails.rawValue,
                        sendMessages: details.sendMessages.rawValue, link: details.link.rawValue, inviteLink: details.inviteLink,
                        admin: details.administrators.contains(me))
                }
                return try Self.json(
                    Group(
                        id: GroupID(group.id).hex, conversationId: group.conversationId, title: group.title,
                        members: group.members.filter { details?.invited.contains($0) != true }.map(person), left: group.left,
                        server: server))
            }
        }
        router.post("/api/groups/:id/settings") { request, context in
            await Self.answer {
                let settings = try await Self.body(GroupSettings.self, of: request)
                let group = try group(context)
                guard group.serverStored else {
                    throw WebRequestError(
                        status: .badRequest, message: "“\(group.title)” is client-managed: it has no administrators or link")
                }
                func access(_ text: String?) throws -> ServerGroupDetails.Access? {
                    guard let text else { return nil }
                    guard let access = ServerGroupDetails.Access(rawValue: text) else {
                        throw WebRequestError(status: .badRequest, message: "a permission is members or admins")
                    }
                    return access
                }
                let permissions = (try access(settings.addMembers), try access(settings.editDetails), try access(settings.sendMessages))
                if permissions.0 != nil || permissions.1 != nil || permissions.2 != nil {
                    _ = try await client.setGroupPermissions(
                        group.id, addMembers: permissions.0, editDetails: permissions.1, sendMessages: permissions.2, attempt: .dueJobs)
                }
                if settings.link != nil || settings.resetLink == true {
                    let link = try settings.link.map { text in
                        guard let link = ServerGroupDetails.LinkAccess(rawValue: text) else {
                            throw WebRequestError(status: .badRequest, message: "the link is off, open or approval")
                        }
                        return link
                    }
                    _ = try await client.setGroupLink(
                        group.id, access: try link ?? client.serverGroupDetails(group.id).link, reset: settings.resetLink == true,
                        attempt: .dueJobs)
                }
                if let admin = settings.admin { _ = try await client.setGroupAdministrator(group.id, person: admin, attempt: .dueJobs) }
                if let admin = settings.revokeAdmin {
                    _ = try await client.setGroupAdministrator(group.id, person: admin, revoke: true, attempt: .dueJobs)
                }
                if let person = settings.approve {
                    _ = try await client.answerGroupRequest(group.id, person: person, approve: true, attempt: .dueJobs)
                }
                if let person = settings.deny {
                    _ = try await client.answerGroupRequest(group.id, person: person, approve: false, attempt: .dueJobs)
                }
                return Response(status: .noContent)
            }
        }
        router.post("/api/groups/:id") { request, context in
            await Self.answer {
                let change = try await Self.body(GroupChange.self, of: request)
                let group = try group(context)
                let report = try await client.updateGroup(
                    group.id, title: change.title.flatMap { $0 == group.title ? nil : $0 }, adding: try await resolve(change.add ?? []),
                    removing: try await resolve(change.remove ?? []), attempt: .dueJobs)
                return try Self.json(Self.present(report))
            }
        }
        router.post("/api/groups/:id/leave") { _, context in
            await Self.answer { try Self.json(Self.present(try await client.leaveGroup(try group(context).id, attempt: .dueJobs))) }
        }
    }

    /// The group a route's `{id}` (hex or base64) names.
    private func group(_ context: LocalRequestContext) throws -> GroupInfo {
        let text = try context.parameters.require("id")
        guard let id = try? GroupID(text: text), let group = try client.group(id: id.data) else {
            throw WebRequestError(status: .notFound, message: "no group \(text)")
        }
        return group
    }

    /// The account ids `names` name (usernames or account ids), each looked up; at most a group's size.
    private func resolve(_ names: [String]) async throws -> [String] {
        guard names.count <= GroupContext.maximumMembers else {
            throw WebRequestError(status: .badRequest, message: "a group has at most \(GroupContext.maximumMembers) members")
        }
        var ids: [String] = []
        for name in names.map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            ids.append(try await client.resolve(name))
        }
        return ids
    }
}
