import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ParleyKit
import ParleyLocalService

/// What the page does to one message: react, edit, delete for everyone; its attachments, listed and downloaded
/// (decrypted here, streamed to the page).
extension WebAPI {
    struct Reaction: Decodable {
        let emoji: String
        let remove: Bool?
    }

    struct Edit: Decodable { let body: String }

    func addMessageRoutes(to router: Router<LocalRequestContext>) {
        router.post("/api/messages/:id/react") { request, context in
            await Self.answer {
                let reaction = try await Self.body(Reaction.self, of: request)
                let report = try await client.react(
                    reaction.emoji, to: try Self.integer("id", of: context), remove: reaction.remove ?? false, attempt: .dueJobs)
                return try Self.json(Self.present(report))
            }
        }
        router.post("/api/messages/:id/edit") { request, context in
            await Self.answer {
                let edit = try await Self.body(Edit.self, of: request)
                return try Self.json(
                    Self.present(try await client.edit(try Self.integer("id", of: context), body: edit.body, attempt: .dueJobs)))
            }
        }
        router.post("/api/messages/:id/delete") { _, context in
            await Self.answer {
                try Self.json(Self.present(try await client.deleteForEveryone(try Self.integer("id", of: context), attempt: .dueJobs)))
            }
        }
        router.get("/api/messages/:id/attachments") { _, context in
            await Self.answer { try Self.json(try client.attachments(ofMessage: try Self.integer("id", of: context))) }
        }
        router.get("/api/attachments/:id") { _, context in
            await Self.answer { try await download(try Self.integer("id", of: context), context: context) }
        }
    }

    /// Attachment `id`, downloaded from the server when this device does not hold it yet, decrypted to a private file
    /// that leaves the disk as soon as it is open, and streamed to the page.
    private func download(_ id: Int64, context: LocalRequestContext) async throws -> Response {
        guard let lease = downloads.lease() else {
            var busy = WebMiddleware<LocalRequestContext>.error(
                "at most \(downloads.limit) downloads at once", status: .serviceUnavailable)
            busy.headers[.retryAfter] = "2"
            return busy
        }
        let file = try client.temporaryFile(named: "web-download")
        let reader: FileHandle
        do {
            try await client.downloadAttachment(id, to: file, recordingIt: true)
            reader = try FileHandle(forReadingFrom: file)
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? nil
        try? FileManager.default.removeItem(at: file)
        let info = try? client.attachment(id: id)
        var headers: HTTPFields = [.contentType: info?.contentType ?? "application/octet-stream"]
        if let size { headers[.contentLength] = String(size) }
        // Shown inline only for types a browser draws without running anything; everything else is a download.
        let inline =
            (info?.contentType).map { type in
                ["image/png", "image/jpeg", "image/gif", "image/webp", "audio/", "video/mp4"].contains { type.hasPrefix($0) }
            } ?? false
        let name = (info?.fileName ?? "attachment").replacingOccurrences(of: "\"", with: "")
        headers[.contentDisposition] = "\(inline ? "inline" : "attachment"); filename=\"\(name)\""
        headers[.cacheControl] = "private, max-age=3600"
        let hold = StreamHold(lease, limit: .seconds(30), closing: context.channel, waitingForHead: true)
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                defer { try? reader.close() }
                hold.watch.stopWaiting()
                while let chunk = try reader.read(upToCount: 256 * 1024), !chunk.isEmpty {
                    try await hold.watch.write { try await writer.write(ByteBuffer(bytes: chunk)) }
                }
                try await writer.finish(nil)
            })
    }
}
