import Foundation

extension MessageSender {
    /// Creates a group of this account and `members` (account ids) titled `title`; returns its id. Every member
    /// learns of it 1:1; messages then go out with Sender Keys.
    @discardableResult
    public func createGroup(title: String, members: [String]) throws -> Data {
        try makeGroup(title: title, members: members).id
    }

    /// ``createGroup(title:members:)``, with the timestamp its change was queued at (its jobs carry it).
    func makeGroup(title: String, members: [String]) throws -> (id: Data, timestamp: UInt64) {
        var generator = SystemRandomNumberGenerator()
        let id = Data((0..<GroupContext.idLength).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let timestamp = clock.next()
        try database.write { db in
            let me = try LocalAccount.credentials(db).accountId
            let everyone = [me] + Set(members).subtracting([me]).sorted()
            try changeGroup(
                GroupContext(id: id, revision: 1, state: GroupState(title: title, members: everyone)), previous: [], timestamp: timestamp,
                db)
        }
        return (id, timestamp)
    }

    /// Adds `accountIds` to group `groupId`. Returns the change's timestamp (`nil` when nothing changed).
    @discardableResult
    public func addMembers(_ accountIds: [String], to groupId: Data) throws -> UInt64? {
        try updateGroup(groupId) { state in state.members += accountIds.filter { !state.members.contains($0) } }
    }

    /// Removes `accountIds` from group `groupId`: they learn of it, and every remaining member's next group
    /// message starts a new sender key they do not get. Returns the change's timestamp (`nil` when nothing changed).
    @discardableResult
    public func removeMembers(_ accountIds: [String], from groupId: Data) throws -> UInt64? {
        try updateGroup(groupId) { state in state.members.removeAll { accountIds.contains($0) } }
    }

    /// Renames group `groupId`. Returns the change's timestamp (`nil` when nothing changed).
    @discardableResult
    public func renameGroup(_ groupId: Data, to title: String) throws -> UInt64? {
        try updateGroup(groupId) { state in state.title = title }
    }

    /// Leaves group `groupId`: the others remove this account and stop sending it anything. Returns the change's
    /// timestamp.
    @discardableResult
    public func leaveGroup(_ groupId: Data) throws -> UInt64? {
        let me = try database.read(LocalAccount.credentials).accountId
        return try updateGroup(groupId) { state in state.members.removeAll { $0 == me } }
    }

    private func updateGroup(_ groupId: Data, _ change: (inout GroupState) -> Void) throws -> UInt64? {
        let timestamp = clock.next()
        return try database.write { db -> UInt64? in
            guard let group = try ConversationsTable.group(id: groupId, db) else { throw ParleyError.invalidArgument("no such group") }
            guard !group.left else { throw ParleyError.invalidArgument("this account is no longer a member of “\(group.title)”") }
            var state = GroupState(title: group.title, members: group.members)
            change(&state)
            guard state != GroupState(title: group.title, members: group.members) else { return nil }
            guard group.revision < UInt32.max else {
                throw ParleyError.invalidArgument("“\(group.title)” has no revision left to change it")
            }
            try changeGroup(
                GroupContext(id: groupId, revision: group.revision + 1, state: state), previous: group.members,
                timestamp: timestamp, db)
            return timestamp
        }
    }

    /// Validates and applies a change here, then queues it 1:1 to everyone in the group before or after it.
    private func changeGroup(_ context: GroupContext, previous: [String], timestamp: UInt64, _ db: StorageTransaction) throws {
        guard let state = context.state, !state.title.isEmpty, state.title.utf8.count <= GroupContext.maximumTitleBytes else {
            throw ParleyError.invalidArgument("a group title is 1…\(GroupContext.maximumTitleBytes) bytes")
        }
        guard state.members.count <= GroupContext.maximumMembers else {
            throw ParleyError.invalidArgument("a group has at most \(GroupContext.maximumMembers) members")
        }
        let audience = Array(Set(previous).union(state.members)).sorted()
        try send(DataMessage(body: nil, group: context), to: .accounts(audience), peer: "", timestamp: timestamp, db)
    }
}

extension MessageSender {
    /// Tells `audience` (account ids) that server-stored group `groupId` changed to `revision`, carrying the server's
    /// signed change: each of their devices reads the group from the server. Returns the notice's timestamp.
    func announceServerGroupChange(_ groupId: Data, revision: UInt32, signedChange: Data?, audience: [String]) throws -> UInt64 {
        let timestamp = clock.next()
        try database.write { db in
            guard let group = try ConversationsTable.group(id: groupId, db), let masterKey = group.masterKey else {
                throw ParleyError.invalidArgument("no server-stored group \(GroupID(groupId))")
            }
            let context = GroupContext(id: groupId, revision: revision, masterKey: masterKey, groupChange: signedChange)
            try send(
                DataMessage(body: nil, group: context), to: .accounts(Array(Set(audience)).sorted()), peer: "", timestamp: timestamp, db)
        }
        return timestamp
    }
}
