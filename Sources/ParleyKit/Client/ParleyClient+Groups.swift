import Foundation

/// The verbs that change groups: each applies the change here (a server-stored group's: on the server first), queues
/// it 1:1 to everyone in the group before or after it, then goes as far as the caller's ``DeliveryAttempt`` asks, and
/// reports where its own changes stand.
extension ParleyClient {
    /// Creates a group of this account and `members` (account ids or usernames) titled `title`; returns its id with
    /// the report. Every member learns of it 1:1; messages then go out with Sender Keys.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` for an empty or over-long title or too many members;
    ///   ``ParleyError/Server`` when a username is unknown.
    public func createGroup(title: String, members: [String], attempt: DeliveryAttempt = .dueJobs) async throws -> (
        id: Data, report: SendReport
    ) {
        let accountIds = try await resolve(people: members)
        let (id, timestamp) = try sender.makeGroup(title: title, members: accountIds)
        return (id, try await settle(sentAt: [timestamp], groupChanges: true, attempt: attempt))
    }

    /// Changes group `groupId`: a new title, members added (account ids or usernames), members removed — one call, each
    /// part its own change, every name looked up before anything changes.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` for an unknown group, one this account left, or a change a group
    ///   cannot take; ``ParleyError/Server`` when a username is unknown.
    @discardableResult
    public func updateGroup(
        _ groupId: Data, title: String? = nil, adding: [String] = [], removing: [String] = [],
        attempt: DeliveryAttempt = .dueJobs
    ) async throws -> SendReport {
        let added = try await resolve(people: adding)
        let removed = try await resolve(people: removing)
        if try isServerStored(groupId) {
            return try await changeServerGroup(groupId, attempt: attempt, alsoTell: removed) { change in
                if let title { try change.setTitle(title) }
                try await change.add(added)
                try change.remove(removed)
            }
        }
        var changes: [UInt64?] = []
        if let title { changes.append(try sender.renameGroup(groupId, to: title)) }
        if !added.isEmpty { changes.append(try sender.addMembers(added, to: groupId)) }
        if !removed.isEmpty { changes.append(try sender.removeMembers(removed, from: groupId)) }
        return try await settle(sentAt: changes.compactMap { $0 }, groupChanges: true, attempt: attempt)
    }

    /// Leaves group `groupId`: the others remove this account and stop sending it anything.
    @discardableResult
    public func leaveGroup(_ groupId: Data, attempt: DeliveryAttempt = .dueJobs) async throws -> SendReport {
        if try isServerStored(groupId) { return try await changeServerGroup(groupId, attempt: attempt) { try $0.leave() } }
        let change = try sender.leaveGroup(groupId)
        return try await settle(sentAt: change.map { [$0] } ?? [], groupChanges: true, attempt: attempt)
    }

    /// Whether group `groupId` is stored on the server (else client-managed, or unknown).
    func isServerStored(_ groupId: Data) throws -> Bool {
        try database.read { db in try ConversationsTable.group(id: groupId, db)?.masterKey != nil }
    }

    /// The account ids of `people` (account ids or usernames), each looked up once, in order.
    func resolve(people: [String]) async throws -> [String] {
        var ids: [String] = []
        for person in people { ids.append(try await resolve(person)) }
        return ids
    }
}
