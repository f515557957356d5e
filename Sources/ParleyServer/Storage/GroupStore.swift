/// Server-stored groups: each group's current state and the log of changes that made it.
///
/// The server stores what clients encrypted (serialized `Group` and `GroupChange` protobufs) and orders changes by
/// revision; it never reads member ids or titles. Implementations are safe to call concurrently; each method is one
/// transaction.
public protocol GroupStore: Sendable {
    /// Stores a new group at its first revision with the log entry `change`; `false` when a group with that id exists.
    func createGroup(_ group: StoredGroup, change: [UInt8]) async throws -> Bool
    /// The group with identifier `id`, if any.
    func group(id: [UInt8]) async throws -> StoredGroup?
    /// Replaces the group with `group` and logs `change`, only if the stored revision is still `group.version - 1`;
    /// `false` when another change got there first (the caller re-reads and tries again).
    func updateGroup(_ group: StoredGroup, change: [UInt8]) async throws -> Bool
    /// Up to `limit` log entries of group `id` from revision `from` on, oldest first.
    func groupChanges(id: [UInt8], from: UInt32, limit: Int) async throws -> [StoredGroupChange]
}
