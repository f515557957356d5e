import Foundation
import GRDB
import ParleyAPI

/// Attachments of received messages: downloading (digest, MAC, the duplicate-content check) and what shows
/// before downloading.
extension ParleyClient {
    /// Downloads, checks (digest and MAC) and decrypts attachment `attachmentId` into `destination`.
    public func downloadAttachment(_ attachmentId: Int64, to destination: URL,
                                   progress: @escaping @Sendable (Int64) -> Void = { _ in }) async throws {
        let row = try database.read { db in
            try Row.fetchOne(db, sql: "SELECT server_id, keys, digest, size, state FROM attachments WHERE id = ?", arguments: [attachmentId])
        }
        guard let row, let serverId = row["server_id"] as String?, let keys = row["keys"] as Data?, let digest = row["digest"] as Data? else {
            throw ParleyError.invalidArgument("no downloadable attachment \(attachmentId)")
        }
        if row["state"] as String? == "blocked" { throw ParleyError.duplicateBlocked(fileName: destination.lastPathComponent) }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ParleyError.invalidArgument("\(destination.path) is a directory")
        }
        // Both files in this process's private staging directory: removed here, or by the next client to open the
        // account if this process is killed.
        let blob = try staging.file("download")
        let plaintext = try staging.file("plaintext")
        defer {
            try? FileManager.default.removeItem(at: blob)
            try? FileManager.default.removeItem(at: plaintext)
        }
        try await api.downloadAttachment(serverId, to: blob, as: try credentials(), progress: progress)
        let plaintextHash = try AttachmentDecryptor.decryptFile(
            at: blob, to: plaintext, keys: try AttachmentKeys(combined: [UInt8](keys)), digest: [UInt8](digest), plaintextLength: row["size"])
        // The download hook: a blocked hash never reaches the user; the reason is recorded.
        let hash = ContentHashFormat.hex(plaintextHash)
        let verdict = await contentDetection.contains(hash)
        if verdict.blocked {
            try await database.awaitableWrite { db in
                try db.execute(sql: "UPDATE attachments SET state = 'blocked', blocked_reason = ? WHERE id = ?",
                               arguments: ["content hash \(hash) is in the \(verdict.banks.joined(separator: ", ")) bank", attachmentId])
            }
            throw ParleyError.duplicateBlocked(fileName: destination.lastPathComponent)
        }
        // rename(2) replaces a file at the destination atomically and refuses a directory.
        guard rename(plaintext.path, destination.path) == 0 else {
            if errno == EXDEV {  // another file system: copy, then the staging file goes with the deferred cleanup
                if FileManager.default.fileExists(atPath: destination.path) { try FileManager.default.removeItem(at: destination) }
                try FileManager.default.copyItem(at: plaintext, to: destination)
                return try await markDownloaded(attachmentId, at: destination)
            }
            throw ParleyError.invalidArgument("cannot write \(destination.path): \(String(cString: strerror(errno)))")
        }
        try await markDownloaded(attachmentId, at: destination)
    }

    fileprivate func markDownloaded(_ attachmentId: Int64, at destination: URL) async throws {
        let recorded = try await database.awaitableWrite { db in
            try db.execute(sql: "UPDATE attachments SET local_path = ?, state = 'downloaded' WHERE id = ?",
                           arguments: [destination.path, attachmentId])
            return db.changesCount > 0
        }
        // The message was deleted for everyone or disappeared during the download: its content goes with it.
        guard recorded else {
            try? FileManager.default.removeItem(at: destination)
            throw ParleyError.invalidArgument("attachment \(attachmentId) was deleted while it downloaded")
        }
    }

    /// A fresh path in this process's private staging directory (0700) for a file that must not outlive the process:
    /// removed by ``shutdown()``, or by the next client to open the account if this process dies first. The caller
    /// creates the file, and should remove it when done.
    public func temporaryFile(named purpose: String) throws -> URL {
        try staging.file(purpose)
    }

    /// The attachments of a message, with what shows before downloading (type, name, duration, waveform).
    public func attachments(ofMessage messageId: Int64) throws -> [AttachmentInfo] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, file_name, size, content_type, duration_ms, waveform, voice_note, state FROM attachments WHERE message_id = ? ORDER BY id
                """, arguments: [messageId]).map {
                AttachmentInfo(id: $0["id"], fileName: $0["file_name"], size: $0["size"], contentType: $0["content_type"],
                               durationMilliseconds: ($0["duration_ms"] as Int64?).map { $0.clampedUInt32 },
                               waveform: Waveform.decode($0["waveform"]), voiceNote: $0["voice_note"], state: $0["state"])
            }
        }
    }
}
