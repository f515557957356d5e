import ArgumentParser
import Foundation
import ParleyKit

struct GroupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group", abstract: "Groups: messages go out with Sender Keys; any member may change the group.",
        subcommands: [Create.self, Add.self, Remove.self, Leave.self, List.self])

    /// A group id as the commands print it (32 hex digits).
    static func hex(_ id: Data) -> String { GroupID(id).hex }

    /// Parses a group id as the commands print it (hex) or as JSON output and signal-cli give it (base64).
    static func id(_ text: String) throws -> Data {
        guard let id = try? GroupID(text: text) else {
            throw ValidationError("a group id is 32 hex digits or its base64 (see `parley group list`)")
        }
        return id.data
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a group with you and the given members.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The title.") var title: String
        @Argument(help: "Members: usernames or account ids.") var members: [String]

        func run() async throws {
            let (id, report) = try await AccountContext.with(options) { client in
                try await client.createGroup(title: title, members: members)
            }
            struct Created: Encodable {
                let groupId: String
                let sent: Int
                let deferred: Int
            }
            Output(json: options.json).emit(
                Created(groupId: GroupCommand.hex(id), sent: report.jobs.completed, deferred: report.jobs.deferred),
                text: "created “\(title)”: \(GroupCommand.hex(id))")
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add members to a group.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The group id.") var group: String
        @Argument(help: "Members to add.") var members: [String]

        func run() async throws {
            let report = try await AccountContext.with(options) { client in
                try await client.updateGroup(try GroupCommand.id(group), adding: members).jobs
            }
            Output(json: options.json).emitJobs(report, text: "added \(members.count) member(s)")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove members from a group; every remaining member starts a new sender key they do not get.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The group id.") var group: String
        @Argument(help: "Members to remove.") var members: [String]

        func run() async throws {
            let report = try await AccountContext.with(options) { client in
                try await client.updateGroup(try GroupCommand.id(group), removing: members).jobs
            }
            Output(json: options.json).emitJobs(report, text: "removed \(members.count) member(s)")
        }
    }

    struct Leave: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Leave a group.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The group id.") var group: String

        func run() async throws {
            let report = try await AccountContext.with(options) { client in
                try await client.leaveGroup(try GroupCommand.id(group)).jobs
            }
            Output(json: options.json).emitJobs(report, text: "left the group")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your groups with their members.")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let (groups, names) = try await AccountContext.with(options) { client in
                let groups = try client.groups()
                return (groups, try client.usernames(of: groups.flatMap(\.members)))
            }
            let output = Output(json: options.json)
            for group in groups {
                struct Member: Encodable {
                    let accountId: String
                    let username: String?
                }
                struct Listed: Encodable {
                    let groupId: String
                    let title: String
                    let members: [Member]
                    let left: Bool
                }
                let members = group.members.map { Member(accountId: $0, username: names[$0]) }
                let shown = members.map { $0.username ?? String($0.accountId.prefix(8)) }.joined(separator: ", ")
                output.emit(
                    Listed(groupId: GroupCommand.hex(group.id), title: group.title, members: members, left: group.left),
                    text: "\(GroupCommand.hex(group.id))  “\(group.title)”  \(shown)\(group.left ? " (left)" : "")")
            }
        }
    }
}
