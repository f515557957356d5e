import ArgumentParser
import Foundation
import ParleyKit

struct GroupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group",
        abstract: "Groups: messages go out with Sender Keys; server-stored groups have administrators, permissions and invite links.",
        subcommands: [
            Create.self, Add.self, Remove.self, Leave.self, List.self, Info.self, Admin.self, Permissions.self, Link.self, Join.self,
            Accept.self, Requests.self, Approve.self, Deny.self, Ban.self, Unban.self,
        ])

    /// A group id as the commands print it (hex: 64 digits for a server-stored group, 32 for a client-managed one).
    static func hex(_ id: Data) -> String { GroupID(id).hex }

    /// Parses a group id as the commands print it (hex) or as JSON output and signal-cli give it (base64).
    static func id(_ text: String) throws -> Data {
        guard let id = try? GroupID(text: text) else {
            throw ValidationError("a group id is 64 (or 32) hex digits or its base64 (see `parley group list`)")
        }
        return id.data
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a group with you and the given members.",
            discussion: """
                Without --stored-on-server, a client-managed group: kept by its members alone, any member may make any \
                change. With it, the server stores the group as ciphertexts it cannot read and enforces who may change it: \
                you are its administrator (see `group admin`, `group permissions`, `group link`). People whose profile key \
                you know (anyone who has written to you) are members at once; the others are invited and join when their \
                device hears of the group.
                """)
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The title.") var title: String
        @Argument(help: "Members: usernames or account ids.") var members: [String] = []
        @Flag(help: "Store the group on the server, with administrators, permissions and invite links.") var storedOnServer = false

        func run() async throws {
            let (id, report) = try await AccountContext.with(options) { client in
                storedOnServer
                    ? try await client.createServerGroup(title: title, members: members)
                    : try await client.createGroup(title: title, members: members)
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

    /// A server-stored group's details as `group info` shows them.
    struct Shown: Encodable {
        let groupId: String
        let revision: UInt32
        let title: String
        let description: String
        let members: [String]
        let administrators: [String]
        let invited: [String]
        let requesting: [String]
        let banned: [String]
        let addMembers: String
        let editDetails: String
        let sendMessages: String
        let link: String
        let inviteLink: String?
    }

    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "A server-stored group as the server has it now: members, administrators, invitations, requests, permissions, the link.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The group id.") var group: String

        func run() async throws {
            let (details, names) = try await AccountContext.with(options) { client in
                let details = try await client.refreshServerGroup(try GroupCommand.id(group))
                return (
                    details,
                    try await client.names(of: details.members + details.invited + details.requesting + details.banned)
                )
            }
            let name = { (id: String) in names[id] ?? id }
            let shown = Shown(
                groupId: GroupCommand.hex(details.id.data), revision: details.revision, title: details.title,
                description: details.groupDescription, members: details.members.map(name),
                administrators: details.administrators.map(name), invited: details.invited.map(name),
                requesting: details.requesting.map(name), banned: details.banned.map(name), addMembers: details.addMembers.rawValue,
                editDetails: details.editDetails.rawValue, sendMessages: details.sendMessages.rawValue, link: details.link.rawValue,
                inviteLink: details.inviteLink)
            var lines = [
                "“\(details.title)” (revision \(details.revision))",
                "members: \(shown.members.joined(separator: ", "))", "administrators: \(shown.administrators.joined(separator: ", "))",
            ]
            if !shown.invited.isEmpty { lines.append("invited: \(shown.invited.joined(separator: ", "))") }
            if !shown.requesting.isEmpty { lines.append("asking to join: \(shown.requesting.joined(separator: ", "))") }
            if !shown.banned.isEmpty { lines.append("banned: \(shown.banned.joined(separator: ", "))") }
            lines.append("add members: \(shown.addMembers); edit details: \(shown.editDetails); send: \(shown.sendMessages)")
            lines.append("link: \(shown.link)\(shown.inviteLink.map { " " + $0 } ?? "")")
            Output(json: options.json).emit(shown, text: lines.joined(separator: "\n"))
        }
    }

    struct Admin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a member an administrator (--revoke: an ordinary member again).")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The group id.") var group: String
        @Argument(help: "The member: a username or account id.") var member: String
        @Flag(help: "Make them an ordinary member.") var revoke = false

        func run() async throws {
            let report = try await AccountContext.with(options) { client in
                try await client.setGroupAdministrator(try GroupCommand.id(group), person: member, revoke: revoke).jobs
            }
            Output(json: options.json).emitJobs(report, text: revoke ? "\(member) is an ordinary member" : "\(member) is an administrator")
        }
    }

    /// Who may do something, as the commands take it.
    enum Who: String, ExpressibleByArgument {
        case admins
        case members
        var access: ServerGroupDetails.Access { self == .admins ? .admins : .members }
    }

    struct Permissions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set who may add members, edit the group's details and send messages.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The group id.") var group: String
        @Option(help: "Who adds members: admins or members.") var addMembers: Who?
        @Option(help: "Who edits the title, description and timer: admins or members.") var editDetails: Who?
        @Option(help: "Who sends messages: admins (an announcements group) or members.") var send: Who?

        func run() async throws {
            guard addMembers != nil || editDetails != nil || send != nil else {
                throw ValidationError("give at least one of --add-members, --edit-details, --send")
            }
            let report = try await AccountContext.with(options) { client in
                try await client.setGroupPermissions(
                    try GroupCommand.id(group), addMembers: addMembers?.access, editDetails: editDetails?.access, sendMessages: send?.access
                ).jobs
            }
            Output(json: options.json).emitJobs(report, text: "permissions set")
        }
    }

    struct Link: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn the invite link on (anyone with it joins; --approval: an administrator approves each) or --off; print it.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The group id.") var group: String
        @Flag(help: "Joining needs an administrator's approval.") var approval = false
        @Flag(help: "A new link: the old one stops working.") var reset = false
        @Flag(help: "No link.") var off = false

        func run() async throws {
            let access: ServerGroupDetails.LinkAccess = off ? .off : approval ? .approval : .open
            let (link, report) = try await AccountContext.with(options) { client in
                try await client.setGroupLink(try GroupCommand.id(group), access: access, reset: reset)
            }
            struct Linked: Encodable {
                let link: String?
                let sent: Int
            }
            Output(json: options.json).emit(Linked(link: link, sent: report.jobs.completed), text: link ?? "the invite link is off")
        }
    }

    struct Join: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Join a group by its invite link (or ask to, when it needs approval).")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The invite link.") var link: String

        func run() async throws {
            let (id, joined, _) = try await AccountContext.with(options) { client in try await client.joinGroup(link: link) }
            struct Joined: Encodable {
                let groupId: String
                let joined: Bool
            }
            Output(json: options.json).emit(
                Joined(groupId: GroupCommand.hex(id), joined: joined),
                text: joined ? "joined \(GroupCommand.hex(id))" : "asked to join \(GroupCommand.hex(id)); an administrator will decide")
        }
    }

    struct Accept: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Accept an invitation to a server-stored group from someone you have not written to (it puts your profile key in the group)."
        )
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The group id.") var group: String

        func run() async throws {
            let report = try await AccountContext.with(options) { client in
                try await client.acceptGroupInvitation(try GroupCommand.id(group)).jobs
            }
            Output(json: options.json).emitJobs(report, text: "accepted the invitation")
        }
    }

    struct Requests: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "People asking to join by the link.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The group id.") var group: String

        func run() async throws {
            let (requesting, names) = try await AccountContext.with(options) { client in
                let details = try await client.refreshServerGroup(try GroupCommand.id(group))
                return (details.requesting, try await client.names(of: details.requesting))
            }
            struct Request: Encodable {
                let accountId: String
                let username: String?
            }
            let output = Output(json: options.json)
            for accountId in requesting {
                output.emit(Request(accountId: accountId, username: names[accountId]), text: names[accountId] ?? accountId)
            }
        }
    }

    struct Approve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Let someone who asked to join in.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The group id.") var group: String
        @Argument(help: "Who asked: a username or account id.") var person: String

        func run() async throws {
            let report = try await AccountContext.with(options) { client in
                try await client.answerGroupRequest(try GroupCommand.id(group), person: person, approve: true).jobs
            }
            Output(json: options.json).emitJobs(report, text: "approved \(person)")
        }
    }

    struct Deny: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Refuse someone who asked to join.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The group id.") var group: String
        @Argument(help: "Who asked: a username or account id.") var person: String

        func run() async throws {
            let report = try await AccountContext.with(options) { client in
                try await client.answerGroupRequest(try GroupCommand.id(group), person: person, approve: false).jobs
            }
            Output(json: options.json).emitJobs(report, text: "denied \(person)")
        }
    }

    struct Ban: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Ban someone: removed, and unable to join or ask by the link.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The group id.") var group: String
        @Argument(help: "A username or account id.") var person: String

        func run() async throws {
            let report = try await AccountContext.with(options) { client in
                try await client.banFromGroup(try GroupCommand.id(group), person: person).jobs
            }
            Output(json: options.json).emitJobs(report, text: "banned \(person)")
        }
    }

    struct Unban: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lift a ban.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The group id.") var group: String
        @Argument(help: "A username or account id.") var person: String

        func run() async throws {
            let report = try await AccountContext.with(options) { client in
                try await client.banFromGroup(try GroupCommand.id(group), person: person, lift: true).jobs
            }
            Output(json: options.json).emitJobs(report, text: "lifted the ban on \(person)")
        }
    }
}
