import Foundation
import Hummingbird
import ParleyKit
import ParleyLocalService

/// Groups from the page: make one, rename it, add and remove members, leave; and a group's members by name.
extension WebAPI {
    struct NewGroup: Decodable {
        let title: String
        /// People, by username or account id.
        let members: [String]
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
                let (id, _) = try await client.createGroup(title: group.title, members: members, attempt: .dueJobs)
                guard let made = try client.group(id: id) else {
                    throw WebRequestError(status: .internalServerError, message: "no group made")
                }
                return try Self.json(Made(id: GroupID(id).hex, conversationId: made.conversationId), status: .created)
            }
        }
        router.get("/api/groups/:id") { _, context in
            await Self.answer {
                let group = try group(context)
                let names = try client.usernames(of: group.members)
                return try Self.json(
                    Group(
                        id: GroupID(group.id).hex, conversationId: group.conversationId, title: group.title,
                        members: group.members.map { Person(accountId: $0, username: names[$0]) }, left: group.left))
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
