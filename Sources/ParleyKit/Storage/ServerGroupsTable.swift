import Foundation
internal import GRDB

/// The `server_groups` table: the master key of each server-stored group and the group as the server last answered
/// it. Its one owner.
enum ServerGroupsTable {
    /// A server-stored group's local record.
    struct Record: Sendable {
        /// Its conversation.
        let conversationId: Int64
        /// The master key.
        let masterKey: Data
        /// The serialized `Group` protobuf the server last answered, if any.
        let state: Data?
    }

    /// Records `masterKey` and `state` for group conversation `conversationId`, with what the state says about who
    /// may send.
    static func store(
        conversationId: Int64, masterKey: Data, state: Data, announcementsOnly: Bool, administrators: [String], _ db: Database
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO server_groups (thread_id, master_key, state, announcements_only, administrators) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (thread_id) DO UPDATE SET master_key = excluded.master_key, state = excluded.state,
                    announcements_only = excluded.announcements_only, administrators = excluded.administrators
                """,
            arguments: [conversationId, masterKey, state, announcementsOnly, administrators.joined(separator: "\n")])
    }

    /// The record of group conversation `conversationId`; `nil` for a client-managed group or none.
    static func record(conversationId: Int64, _ db: Database) throws -> Record? {
        try Row.fetchOne(db, sql: "SELECT master_key, state FROM server_groups WHERE thread_id = ?", arguments: [conversationId]).map {
            Record(conversationId: conversationId, masterKey: $0["master_key"], state: $0["state"])
        }
    }
}
