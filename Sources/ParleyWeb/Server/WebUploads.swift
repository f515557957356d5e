import Foundation
import ParleyKit
import Synchronization

/// Files the page uploaded for a message it is composing: each written, under its own name, to a folder of its own in
/// the client's private staging folder and known by a random id; attached by that id when the message is sent; deleted
/// once that message is no longer being sent (ParleyKit reads the file when the send job runs, which may be after the
/// server comes back), or — never sent — when more than ``maximumWaiting`` wait.
final class WebUploads: Sendable {
    /// The most uploads not yet in a message at once; the oldest goes past it.
    static let maximumWaiting = 32
    /// The largest file accepted.
    static let maximumBytes = 100 * 1024 * 1024

    private struct Upload {
        let id: String
        let folder: URL
        let file: URL
        /// A voice note recorded in the page (a WAV file): sent with its duration and waveform.
        let voiceNote: Bool
        /// The message carrying it, once sent.
        var messageId: Int64?
    }

    let client: ParleyClient
    private let uploads = Mutex<[Upload]>([])

    init(client: ParleyClient) { self.client = client }

    /// A new file for an upload named `name` (its last path component, at most 200 bytes), a recorded voice note when
    /// `voiceNote`; returns its id and path.
    func stage(name: String, voiceNote: Bool = false) throws -> (id: String, file: URL) {
        let folder = try client.temporaryFile(named: "web-upload")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var safe = URL(fileURLWithPath: name).lastPathComponent.filter { $0 != "/" && $0 != "\0" }
        if safe.isEmpty || safe == "." || safe == ".." { safe = "attachment" }
        while safe.utf8.count > 200 { safe.removeFirst() }
        let upload = Upload(
            id: UUID().uuidString.lowercased(), folder: folder, file: folder.appendingPathComponent(safe), voiceNote: voiceNote)
        let dropped = uploads.withLock { uploads -> [URL] in
            uploads.append(upload)
            let waiting = uploads.filter { $0.messageId == nil }
            guard waiting.count > Self.maximumWaiting else { return [] }
            let oldest = Set(waiting.prefix(waiting.count - Self.maximumWaiting).map(\.id))
            let folders = uploads.filter { oldest.contains($0.id) }.map(\.folder)
            uploads.removeAll { oldest.contains($0.id) }
            return folders
        }
        for folder in dropped { try? FileManager.default.removeItem(at: folder) }
        return (upload.id, upload.file)
    }

    /// Forgets an upload that did not complete.
    func discard(_ id: String) {
        let folder = uploads.withLock { uploads -> URL? in
            defer { uploads.removeAll { $0.id == id } }
            return uploads.first { $0.id == id }?.folder
        }
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// The uploads `ids` as attachments, a voice note's duration and waveform measured from its samples.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` for an id that names no upload waiting for a message;
    ///   ``ParleyError/audio(_:)`` for a voice note that is not a WAV file ParleyKit reads.
    func attachments(_ ids: [String]) throws -> [OutgoingAttachment] {
        let known = uploads.withLock { $0 }
        return try ids.map { id in
            guard let upload = known.first(where: { $0.id == id && $0.messageId == nil }) else {
                throw ParleyError.invalidArgument("no uploaded file \(id): upload it again")
            }
            return upload.voiceNote ? try OutgoingAttachment.voiceNote(wav: upload.file) : try OutgoingAttachment(file: upload.file)
        }
    }

    /// The file of upload `id`, waiting for a message.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` for an id that names no upload waiting for a message.
    func file(_ id: String) throws -> URL {
        guard let upload = uploads.withLock({ $0.first { $0.id == id && $0.messageId == nil } }) else {
            throw ParleyError.invalidArgument("no uploaded file \(id): upload it again")
        }
        return upload.file
    }

    /// Records that message `messageId` carries the uploads `ids`.
    func carried(_ ids: [String], by messageId: Int64) {
        uploads.withLock { uploads in
            for index in uploads.indices where ids.contains(uploads[index].id) { uploads[index].messageId = messageId }
        }
    }

    /// Deletes the uploads whose messages are no longer being sent.
    func removeFinished() {
        let carried = uploads.withLock { $0.filter { $0.messageId != nil } }
        let finished = carried.filter { upload in
            guard let id = upload.messageId, let message = try? client.message(id: id) else { return true }
            return message.status != .sending
        }
        guard !finished.isEmpty else { return }
        let ids = Set(finished.map(\.id))
        uploads.withLock { $0.removeAll { ids.contains($0.id) } }
        for upload in finished { try? FileManager.default.removeItem(at: upload.folder) }
    }
}
