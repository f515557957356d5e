import Foundation
internal import GRDB

/// The `attachments` table: each message's files — pending upload, uploaded, remote, downloaded or blocked — with
/// their keys, digests and metadata. Its one owner.
enum AttachmentsTable {
    /// Where an attachment stands.
    enum State: String {
        /// An outgoing file not uploaded yet.
        case pending
        /// An outgoing file on the server.
        case uploaded
        /// An incoming file not downloaded yet.
        case remote
        /// An incoming file downloaded to `local_path`.
        case downloaded
        /// An incoming file whose hash is in a blocking bank.
        case blocked
    }

    /// Records `file` (of `size` bytes) to upload with message `messageId`.
    static func insertOutgoing(_ file: OutgoingAttachment, size: Int, messageId: Int64, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO attachments (message_id, size, content_type, file_name, local_path, state, duration_ms, waveform, voice_note)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                messageId, size, file.contentType, file.file.lastPathComponent, file.file.path, State.pending.rawValue,
                file.durationMilliseconds.map { Int64($0) }, file.waveform.isEmpty ? nil : Waveform.encode(file.waveform),
                file.voiceNote,
            ])
    }

    /// Records the file `pointer` describes, to download, for message `messageId`.
    static func insertIncoming(_ pointer: AttachmentPointer, messageId: Int64, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO attachments (message_id, server_id, keys, digest, size, content_type, file_name, state,
                                         duration_ms, waveform, voice_note)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                messageId, pointer.id, Data(base64Encoded: pointer.key), Data(base64Encoded: pointer.digest),
                pointer.size, pointer.contentType, pointer.fileName, State.remote.rawValue,
                pointer.durationMilliseconds.map { Int64($0) },
                pointer.waveform.isEmpty ? nil : Waveform.encode(pointer.waveform), pointer.voiceNote,
            ])
    }

    /// One outgoing attachment as its send job sees it.
    struct Outgoing: Sendable {
        let id: Int64
        /// The file to upload.
        let path: String?
        /// The pointer, when the file is uploaded already (a retried send).
        let pointer: AttachmentPointer?
        let name: String?
        /// The pointer's metadata; id, key and digest are filled in once the file is uploaded.
        let metadata: AttachmentPointer
    }

    /// The attachments of message `messageId`, as its send job sees them.
    static func outgoing(of messageId: Int64, _ db: Database) throws -> [Outgoing] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT id, local_path, server_id, keys, digest, size, content_type, file_name, duration_ms, waveform, voice_note
                FROM attachments WHERE message_id = ?
                """, arguments: [messageId]
        ).map { row in
            let metadata = AttachmentPointer(
                id: row["server_id"] ?? "", key: (row["keys"] as Data?)?.base64EncodedString() ?? "",
                digest: (row["digest"] as Data?)?.base64EncodedString() ?? "", size: row["size"],
                contentType: row["content_type"] ?? "application/octet-stream", fileName: row["file_name"],
                durationMilliseconds: (row["duration_ms"] as Int64?).map { $0.clampedUInt32 },
                waveform: Waveform.decode(row["waveform"]), voiceNote: row["voice_note"])
            let uploaded = (row["server_id"] as String?) != nil
            return Outgoing(
                id: row["id"], path: row["local_path"], pointer: uploaded ? metadata : nil, name: row["file_name"], metadata: metadata)
        }
    }

    /// Records that attachment `id` was uploaded as `serverId` with `keys` and `digest`.
    static func markUploaded(_ id: Int64, serverId: String, keys: Data, digest: Data, _ db: Database) throws {
        try db.execute(
            sql: "UPDATE attachments SET server_id = ?, keys = ?, digest = ?, state = ? WHERE id = ?",
            arguments: [serverId, keys, digest, State.uploaded.rawValue, id])
    }

    /// What downloading attachment `id` needs.
    struct Download {
        let serverId: String
        let keys: Data
        let digest: Data
        let size: Int
        let blocked: Bool
    }

    /// Attachment `id` as a download, if it is one (an incoming file on the server).
    static func download(_ id: Int64, _ db: Database) throws -> Download? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT server_id, keys, digest, size, state FROM attachments WHERE id = ?", arguments: [id]),
            let serverId = row["server_id"] as String?, let keys = row["keys"] as Data?, let digest = row["digest"] as Data?
        else { return nil }
        return Download(
            serverId: serverId, keys: keys, digest: digest, size: row["size"], blocked: row["state"] as String? == State.blocked.rawValue)
    }

    /// Records that attachment `id` is blocked, and why.
    static func markBlocked(_ id: Int64, reason: String, _ db: Database) throws {
        try db.execute(
            sql: "UPDATE attachments SET state = ?, blocked_reason = ? WHERE id = ?", arguments: [State.blocked.rawValue, reason, id])
    }

    /// Records that attachment `id` was downloaded to `path`; `false` when the attachment is gone (its message was deleted).
    static func markDownloaded(_ id: Int64, to path: String, exported: Bool = false, _ db: Database) throws -> Bool {
        try db.execute(
            sql: "UPDATE attachments SET local_path = ?, state = ?, exported = ? WHERE id = ?",
            arguments: [path, State.downloaded.rawValue, exported, id])
        return db.changesCount > 0
    }

    /// The attachments of message `messageId`, for showing.
    static func infos(of messageId: Int64, _ db: Database) throws -> [AttachmentInfo] {
        try infos(where: "message_id = ?", [messageId], db)
    }

    /// Attachment `id`, for showing.
    static func info(_ id: Int64, _ db: Database) throws -> AttachmentInfo? {
        try infos(where: "id = ?", [id], db).first
    }

    /// Up to `limit` attachments of received messages that can still be downloaded (not blocked), oldest first.
    static func receivedInfos(limit: Int, _ db: Database) throws -> [AttachmentInfo] {
        try infos(where: "state IN (?, ?) AND server_id IS NOT NULL", [State.remote.rawValue, State.downloaded.rawValue], limit: limit, db)
    }

    /// Deletes received attachment `id` from this device (its keys and row); returns the file Parley downloaded for it,
    /// if any, for the caller to remove. `false` in `deleted` when there is no such received attachment.
    static func deleteReceived(_ id: Int64, _ db: Database) throws -> (deleted: Bool, downloadedFile: String?) {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT state, local_path FROM attachments WHERE id = ? AND server_id IS NOT NULL AND state IN (?, ?, ?)",
                arguments: [id, State.remote.rawValue, State.downloaded.rawValue, State.blocked.rawValue])
        else { return (false, nil) }
        try db.execute(sql: "DELETE FROM attachments WHERE id = ?", arguments: [id])
        return (true, row["state"] as String == State.downloaded.rawValue ? row["local_path"] : nil)
    }

    /// The attachments matching `condition`, oldest first, at most `limit` of them.
    private static func infos(
        where condition: String, _ arguments: StatementArguments, limit: Int = Int.max,
        _ db: Database
    ) throws -> [AttachmentInfo] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT id, file_name, size, content_type, duration_ms, waveform, voice_note, state FROM attachments
                WHERE \(condition) ORDER BY id LIMIT ?
                """, arguments: arguments + [Int64(limit)]
        ).map {
            AttachmentInfo(
                id: $0["id"], fileName: $0["file_name"], size: $0["size"], contentType: $0["content_type"],
                durationMilliseconds: ($0["duration_ms"] as Int64?).map { $0.clampedUInt32 },
                waveform: Waveform.decode($0["waveform"]), voiceNote: $0["voice_note"], state: $0["state"])
        }
    }

    /// The files Parley downloaded for message `messageId` into the account's own folder (not exports the person
    /// saved elsewhere, which are theirs to keep).
    static func downloadedFiles(of messageId: Int64, _ db: Database) throws -> [String] {
        try String.fetchAll(
            db,
            sql: "SELECT local_path FROM attachments WHERE message_id = ? AND state = ? AND local_path IS NOT NULL AND exported = 0",
            arguments: [messageId, State.downloaded.rawValue])
    }

    /// Erases the attachments of message `messageId` (the rows; files are the caller's).
    static func delete(of messageId: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM attachments WHERE message_id = ?", arguments: [messageId])
    }
}
