import Foundation
import ParleyKit

/// signal-cli's JSON-RPC methods, answered by a ``ParleyClient``: the same names, parameters and result shapes as
/// signal-cli's daemon (`send`, `sendReaction`, `listGroups`, `updateGroup`, …), so tools written for signal-cli
/// drive Parley. A front door: it parses and presents; every operation is ParleyKit's.
///
/// List parameters take a string or an array, under the singular or plural name (`recipient`/`recipients`), as
/// signal-cli's do. Recipients are named as ``SignalCLIAddress`` says; group ids are base64 (hex accepted too).
struct SignalCLIMethods: Sendable {
    let client: any CompatClient
    /// How signal-cli's results and notifications name this account: `+digits` for a digits-only username, else its id.
    let account: String
    /// Attachments given as `data:` URIs, kept until they are sent.
    let staging: StagedAttachments

    /// The methods answered here, each with its parameters type and handler.
    static let table: [String: SignalCLIMethod] = Dictionary(
        uniqueKeysWithValues: [
            SignalCLIMethod("version", NoParameters.self) { _, _ in version },
            SignalCLIMethod("send", SendParameters.self) { methods, p in try await methods.send(p) },
            SignalCLIMethod("sendReaction", SendReactionParameters.self) { methods, p in try await methods.sendReaction(p) },
            SignalCLIMethod("sendReceipt", SendReceiptParameters.self) { methods, p in try await methods.sendReceipt(p) },
            SignalCLIMethod("sendTyping", SendTypingParameters.self) { methods, p in try await methods.sendTyping(p) },
            SignalCLIMethod("remoteDelete", RemoteDeleteParameters.self) { methods, p in try await methods.remoteDelete(p) },
            SignalCLIMethod("listGroups", ListGroupsParameters.self) { methods, p in try methods.listGroups(p) },
            SignalCLIMethod("updateGroup", UpdateGroupParameters.self) { methods, p in try await methods.updateGroup(p) },
            SignalCLIMethod("quitGroup", QuitGroupParameters.self) { methods, p in try await methods.quitGroup(p) },
            SignalCLIMethod("joinGroup", JoinGroupParameters.self) { methods, p in try await methods.joinGroup(p) },
            SignalCLIMethod("getUserStatus", GetUserStatusParameters.self) { methods, p in try await methods.userStatus(p) },
            SignalCLIMethod("listContacts", NoParameters.self) { methods, _ in try methods.listContacts() },
            SignalCLIMethod("listIdentities", ListIdentitiesParameters.self) { methods, p in try methods.listIdentities(p) },
            SignalCLIMethod("trust", TrustParameters.self) { methods, p in try await methods.trust(p) },
            SignalCLIMethod("listDevices", NoParameters.self) { methods, _ in try await methods.listDevices() },
            SignalCLIMethod("addDevice", AddDeviceParameters.self) { methods, p in try await methods.addDevice(p) },
            SignalCLIMethod("removeDevice", RemoveDeviceParameters.self) { methods, p in try await methods.removeDevice(p) },
            SignalCLIMethod("setPin", SetPinParameters.self) { methods, p in try await methods.setPin(p) },
            SignalCLIMethod("removePin", NoParameters.self) { methods, _ in try await methods.removePin() },
            SignalCLIMethod("updateAccount", UpdateAccountParameters.self) { methods, p in try await methods.updateAccount(p) },
        ].map { ($0.name, $0) })

    /// `version`'s result (it needs no account).
    static let version = JSONValue.object(["version": .string(ParleyVersion.current)])

    /// The result of `method` with `params`.
    /// - Throws: ``JSONRPCError`` in signal-cli's codes: -32601 for a method not answered here, -32602 for a parameter
    ///   of the wrong type; the handler's errors.
    func call(_ method: String, _ params: [String: JSONValue]) async throws -> JSONValue {
        guard let handler = Self.table[method] else { throw JSONRPCError.methodNotFound(method) }
        return try await handler(self, params)
    }

    // MARK: Helpers shared by the handlers

    /// Refuses a call naming a group this account left (before anything is queued or sent).
    static func refuseLeft(_ groups: [GroupInfo]) throws {
        if let left = groups.first(where: \.left) {
            throw JSONRPCError.userError("Not a member of group \(left.title): this account left it")
        }
    }

    /// The group `text` names (base64 or hex id).
    func group(_ text: String) throws -> GroupInfo {
        try groups([text])[0]
    }

    /// The groups `texts` name (base64 or hex ids), each once however often it is named; at most
    /// ``maximumRecipients``, counted before any is looked up, and the groups read once.
    func groups(_ texts: [String]) throws -> [GroupInfo] {
        guard texts.count <= Self.maximumRecipients else {
            throw JSONRPCError.userError("At most \(Self.maximumRecipients) groups per call")
        }
        guard !texts.isEmpty else { return [] }
        let known = Dictionary(try client.groups().map { (GroupID($0.id), $0) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<GroupID>()
        return try texts.compactMap { text in
            let id: GroupID
            do { id = try GroupID(text: text) } catch { throw JSONRPCError.userError("Invalid group id: \(text)") }
            guard let group = known[id] else { throw JSONRPCError.userError("Group not found: \(text)") }
            return seen.insert(id).inserted ? group : nil
        }
    }

    /// The message `author` (a recipient string) sent at `timestamp`.
    func message(by author: String, sentAt timestamp: Int64) async throws -> StoredMessage {
        try message(by: try await SignalCLIAddress.resolve(author, with: client), named: author, sentAt: timestamp)
    }

    /// The message account `authorId` (named `author` in the call) sent at `timestamp`.
    func message(by authorId: String, named author: String, sentAt timestamp: Int64) throws -> StoredMessage {
        guard let message = try client.message(author: authorId, timestamp: try Self.timestamp(timestamp)) else {
            throw JSONRPCError.userError("Target message not found: \(author) at \(timestamp)")
        }
        return message
    }

    /// This account's message sent at `timestamp`.
    func ownMessage(sentAt timestamp: Int64) throws -> StoredMessage {
        guard let message = try client.message(author: try client.credentials().accountId, timestamp: try Self.timestamp(timestamp)) else {
            throw JSONRPCError.userError("Target message not found: this account's message at \(timestamp)")
        }
        return message
    }

    /// The accounts `recipients` name, each once (a number and the same account's UUID are one recipient), looked up
    /// before anything is queued. At most ``maximumRecipients``, counted before any lookup.
    func resolve(_ recipients: [String]) async throws -> [String] {
        guard recipients.count <= Self.maximumRecipients else {
            throw JSONRPCError.userError("At most \(Self.maximumRecipients) recipients per call")
        }
        var seen = Set<String>()
        return try await recipients.asyncMap { try await SignalCLIAddress.resolve($0, with: client) }.filter { seen.insert($0).inserted }
    }

    /// Answers for an act with its timestamp and the recipients it was for: `NETWORK_FAILURE` while it is still queued
    /// (it goes out later) or when it failed for good, whichever job pass ran it — the verb's or `listen`'s.
    func delivered(_ report: SendReport, to accountIds: [String], groups: [GroupInfo]) async throws -> JSONValue {
        let timestamp = report.timestamp ?? 0
        let type = report.status == .sent ? "SUCCESS" : "NETWORK_FAILURE"
        var results: [JSONValue] = []
        for accountId in accountIds { results.append(try result(for: accountId, type: type, group: nil)) }
        for group in groups { results += try memberResults(of: group, type: type) }
        return try answer(timestamp: timestamp, results: results)
    }

    /// One entry per other member of `group` in a send result.
    func memberResults(of group: GroupInfo, type: String) throws -> [JSONValue] {
        let own = try client.credentials().accountId
        return try group.members.filter { $0 != own }.map { try result(for: $0, type: type, group: group) }
    }

    /// signal-cli's send result; when results exist and none succeeded, its -1 error carrying the result.
    func answer(timestamp: UInt64, results: [JSONValue]) throws -> JSONValue {
        let answer = JSONValue.object(["timestamp": .integer(Int64(timestamp)), "results": .array(results)])
        let succeeded = results.contains { if case .object(let fields) = $0 { fields["type"] == .string("SUCCESS") } else { false } }
        guard succeeded || results.isEmpty else {
            throw JSONRPCError.userError("Failed to send message", data: .object(["response": answer]))
        }
        return answer
    }

    /// One recipient's entry in a send result.
    func result(for accountId: String, type: String, group: GroupInfo?) throws -> JSONValue {
        let address = SignalCLIAddress.Address(accountId: accountId, username: try client.usernames(of: [accountId])[accountId])
        var fields: [String: JSONValue] = [
            "recipientAddress": address.json,
            "type": .string(type),
        ]
        if let group { fields["groupId"] = .string(GroupID(group.id).base64) }
        return .object(fields)
    }

    /// The wall clock in milliseconds since 1970 (the timestamp of answers that send nothing themselves).
    static var now: UInt64 { UInt64(Date().timeIntervalSince1970 * 1000) }

    /// A timestamp parameter (milliseconds since 1970).
    /// - Throws: signal-cli's user error for a negative one.
    static func timestamp(_ value: Int64) throws -> UInt64 {
        guard let timestamp = UInt64(exactly: value) else { throw JSONRPCError.userError("Invalid timestamp \(value)") }
        return timestamp
    }

    /// signal-cli's result type for a queued message after the job pass.
    static func resultType(_ message: StoredMessage?, failure: MessageFailure?) -> String {
        switch message?.status {
        case .sent, .delivered, .read: return "SUCCESS"
        case .failed:
            if let failure, failure.reason.contains("safety number") || failure.reason.contains("untrusted") { return "IDENTITY_FAILURE" }
            return "NETWORK_FAILURE"
        default: return "NETWORK_FAILURE"  // still queued: it goes out when the server can be reached
        }
    }

    /// A safety number as signal-cli prints it: groups of five digits separated by spaces.
    static func digitGroups(_ number: String) -> String {
        number.split(whereSeparator: { $0 == "\n" || $0 == " " }).joined(separator: " ")
    }
}
