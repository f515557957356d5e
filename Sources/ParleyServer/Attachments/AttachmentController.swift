import Foundation
import Hummingbird
import ParleyAPI

/// `POST /v1/attachments` (streamed to a file, size-capped; a device's credentials) and `GET /v1/attachments/{id}` (with
/// `Range`; no credentials, limited per client address).
struct AttachmentController: Sendable {
    let blobs: AttachmentStore
    let limits: ServerLimits
    let rateLimiter: RateLimiter
    let metrics: ServerMetrics
    let fileIO = FileIO()

    func addRoutes(to routes: ServerRoutes) {
        routes.device.post(RouterPath(APIRoutes.attachments), use: upload)
        // Without credentials: an authenticated download would show the server who received what the uploader sent.
        // The id (a random UUID) is the capability, and the blob is encrypted.
        routes.open.get(RouterPath(APIRoutes.attachment("{id}")), use: download)
    }

    @Sendable func upload(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let caller = context.device
        try rateLimiter.take("attachment", accountId: caller.account.id, policy: limits.rateLimits.attachmentUpload)
        if let declared = request.headers[.contentLength].flatMap(Int64.init), declared > limits.attachmentBytes {
            throw ServerError.payloadTooLarge(Int(limits.attachmentBytes))
        }
        let id = UUID().uuidString.lowercased()
        try await SizeLimitedBody(base: request.body, limit: limits.attachmentBytes).write(
            to: blobs.incomingPath(id), with: fileIO, context: context)
        do {
            try blobs.commit(id)
        } catch {
            blobs.discard(id)
            throw ServerError.internalFailure("the attachment could not be moved into place: \(error)")
        }
        guard let info = blobs.info(id) else { throw ServerError.internalFailure("stored attachment \(id) vanished") }
        guard info.size > 0 else {
            try? FileManager.default.removeItem(atPath: blobs.path(id))
            throw ServerError.badRequest("an attachment must not be empty")
        }
        metrics.attachmentBytes.increment(by: Int64(info.size))
        return try JSONCoding.response(
            AttachmentUploadResponse(id: id, size: info.size, expires: info.created + limits.attachmentLifetimeMilliseconds),
            status: .created)
    }

    @Sendable func download(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        try rateLimiter.take("attachment-download", address: context.clientAddress, policy: limits.rateLimits.attachmentDownloadPerAddress)
        let id = try context.pathParameter("id")
        guard AttachmentStore.isValidId(id.lowercased()), let info = blobs.info(id.lowercased()),
            info.created + limits.attachmentLifetimeMilliseconds > ServerClock.milliseconds()
        else { throw ServerError.notFound("no attachment \(id)") }
        let path = blobs.path(id.lowercased())
        var headers: HTTPFields = [.contentType: "application/octet-stream", .acceptRanges: "bytes"]
        let range = try ByteRange.resolve(request.headers[.range], size: info.size)
        // What the download serves counts too, a token per MiB: requests alone would let one address pull gigabytes.
        let served = range.map { $0.upperBound - $0.lowerBound + 1 } ?? info.size
        try rateLimiter.take(
            "attachment-download-bytes", address: context.clientAddress, policy: limits.rateLimits.attachmentDownloadMebibytesPerAddress,
            tokens: Int(max(1, (served + (1 << 20) - 1) >> 20)))
        guard let range else {
            return Response(status: .ok, headers: headers, body: try await fileIO.loadFile(path: path, context: context))
        }
        headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(info.size)"
        let body = try await fileIO.loadFile(path: path, range: Int(range.lowerBound)...Int(range.upperBound), context: context)
        return Response(status: .partialContent, headers: headers, body: body)
    }
}
