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
            var busy = JSONResponse.error(
                "at most \(downloads.limit) downloads at once", status: .serviceUnavailable)
            busy.headers[.retryAfter] = "2"
            return busy
        }
        // Decrypted for this answer alone: the file leaves the disk once it is open, and the attachment stays as it was.
        let (reader, size) = try await UnlinkedFile.open(try client.temporaryFile(named: "web-download")) { file in
            try await client.downloadAttachment(id, to: file, recordingIt: false)
        }
        let info = try? client.attachment(id: id)
        var headers = Self.attachmentHeaders(type: info?.contentType, name: info?.fileName ?? "attachment")
        if let size { headers[.contentLength] = String(size) }
        let hold = StreamHold(lease, limit: .seconds(30), closing: context.channel, waitingForHead: true)
        return Response(status: .ok, headers: headers, body: hold.body(streaming: reader))
    }

    /// ASCII letters and digits: what `filename*` keeps unencoded.
    static let plainCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// The types a browser draws in the page without running anything: served as themselves, inline.
    static let inlineTypes = ["image/png", "image/jpeg", "image/gif", "image/webp", "audio/", "video/mp4"]

    /// The headers of an attachment the sender named `name` and typed `type` (both the sender's words): a type the
    /// page draws inline goes as itself; anything else as `application/octet-stream`, to be saved, never rendered (with
    /// `nosniff`, no browser runs it as a script or page). Every answer's policy also sandboxes it, so a file opened by
    /// itself runs nothing in this origin. The file name keeps printable ASCII (`filename`) and its UTF-8 in
    /// `filename*` (RFC 6266).
    static func attachmentHeaders(type: String?, name: String) -> HTTPFields {
        let type = type?.lowercased() ?? ""
        let inline = Self.inlineTypes.contains { type.hasPrefix($0) } && !type.contains(";") && !type.contains(",")
        let ascii = String(
            name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\" ? Character($0) : "_" })
        let encoded = name.addingPercentEncoding(withAllowedCharacters: Self.plainCharacters) ?? ascii
        var headers: HTTPFields = [.contentType: inline ? type : "application/octet-stream"]
        headers[.contentDisposition] = "\(inline ? "inline" : "attachment"); filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
        headers[.cacheControl] = "private, max-age=3600"
        headers[HTTPField.Name("Content-Security-Policy")!] = "default-src 'none'; sandbox"
        return headers
    }
}
