import Foundation
import ParleyAPI

/// Attachments of received messages: downloading (digest, MAC, the duplicate-content check) and what shows
/// before downloading.
extension ParleyClient {
    /// Downloads, checks (digest and MAC) and decrypts attachment `attachmentId` into `destination`, and records it as
    /// downloaded there — unless `recordingIt` is false: a copy handed on and removed by the caller (a front door
    /// serving the bytes) leaves the attachment as it was. A file in ``downloadDirectory`` is the account's own: a
    /// disappearing message's timer and a delete for everyone remove it with the message. One saved anywhere else is an
    /// export the person keeps, and is left alone (as Signal leaves exported files).
    public func downloadAttachment(
        _ attachmentId: Int64, to destination: URL, recordingIt: Bool = true,
        progress: @escaping @Sendable (Int64) -> Void = { _ in }
    ) async throws {
        guard let download = try database.read({ db in try AttachmentsTable.download(attachmentId, db) }) else {
            throw ParleyError.invalidArgument("no downloadable attachment \(attachmentId)")
        }
        if download.blocked { throw ParleyError.duplicateBlocked(fileName: destination.lastPathComponent) }
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
        // IV, the padded plaintext with its PKCS#7 block, MAC: nothing longer can decrypt to `size` bytes.
        let maximumBytes = Int64(AttachmentPadding.paddedSize(max(download.size, 0))) + 16 + 16 + 32
        try await api.downloadAttachment(download.serverId, to: blob, maximumBytes: maximumBytes, progress: progress)
        let plaintextHash = try AttachmentDecryptor.decryptFile(
            at: blob, to: plaintext, keys: try AttachmentKeys(combined: [UInt8](download.keys)), digest: [UInt8](download.digest),
            plaintextLength: download.size)
        // The download hook: a blocked hash never reaches the user; the reason is recorded.
        let hash = ContentHashFormat.hex(plaintextHash)
        let verdict = await contentDetection.contains(hash)
        if verdict.blocked {
            try await database.awaitableWrite { db in
                try AttachmentsTable.markBlocked(
                    attachmentId, reason: "content hash \(hash) is in the \(verdict.banks.joined(separator: ", ")) bank", db)
            }
            throw ParleyError.duplicateBlocked(fileName: destination.lastPathComponent)
        }
        // rename(2) replaces a file at the destination atomically and refuses a directory.
        guard rename(plaintext.path, destination.path) == 0 else {
            if errno == EXDEV {  // another file system: copy, then the staging file goes with the deferred cleanup
                if FileManager.default.fileExists(atPath: destination.path) { try FileManager.default.removeItem(at: destination) }
                try FileManager.default.copyItem(at: plaintext, to: destination)
                if recordingIt { try await markDownloaded(attachmentId, at: destination) }
                return
            }
            throw ParleyError.invalidArgument("cannot write \(destination.path): \(String(cString: strerror(errno)))")
        }
        if recordingIt { try await markDownloaded(attachmentId, at: destination) }
    }

    /// Where attachments are downloaded to when the person names no other place: the account's own folder, whose files
    /// go with their messages.
    public var downloadDirectory: URL { attachmentDirectory.appendingPathComponent("downloads", isDirectory: true) }

    fileprivate func markDownloaded(_ attachmentId: Int64, at destination: URL) async throws {
        let own = downloadDirectory.standardizedFileURL.path + "/"
        let exported = !destination.standardizedFileURL.path.hasPrefix(own)
        let recorded = try await database.awaitableWrite { db in
            try AttachmentsTable.markDownloaded(attachmentId, to: destination.path, exported: exported, db)
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

    /// Up to `limit` attachments of received messages that this device can still download, oldest first.
    public func receivedAttachments(limit: Int = 1000) throws -> [AttachmentInfo] {
        try database.read { db in try AttachmentsTable.receivedInfos(limit: max(0, limit), db) }
    }

    /// Deletes received attachment `attachmentId` from this device: its keys and the file Parley downloaded for it
    /// (the message stays, one attachment fewer). Returns `false` when there is no such received attachment.
    @discardableResult
    public func deleteReceivedAttachment(_ attachmentId: Int64) async throws -> Bool {
        let result = try await database.awaitableWrite { db in try AttachmentsTable.deleteReceived(attachmentId, db) }
        if let file = result.downloadedFile { try? FileManager.default.removeItem(atPath: file) }
        return result.deleted
    }

    /// Attachment `attachmentId`, with what shows before downloading (type, name, duration, waveform); `nil` when there
    /// is none.
    public func attachment(id attachmentId: Int64) throws -> AttachmentInfo? {
        try database.read { db in try AttachmentsTable.info(attachmentId, db) }
    }

    /// The attachments of a message, with what shows before downloading (type, name, duration, waveform).
    public func attachments(ofMessage messageId: Int64) throws -> [AttachmentInfo] {
        try database.read { db in try AttachmentsTable.infos(of: messageId, db) }
    }
}
