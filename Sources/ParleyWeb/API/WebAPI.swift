import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ParleyKit
import ParleyLocalService

/// The page's JSON API: every route is one ParleyClient verb or read, its answer ParleyKit's own values as JSON
/// (``ConversationSummary``, ``StoredMessage``, ``SendReport``…). A front door: it parses and presents, nothing more.
/// Errors are `{"error": "…"}`: 400 for what the request got wrong (ParleyKit's typed errors, in words), 404 for
/// what does not exist, 500 for a failure of this machine's own.
struct WebAPI: Sendable {
    let client: ParleyClient
    let receiver: WebReceiver
    let uploads: WebUploads
    /// Attachment downloads at once (each holds a fetch, a decrypted file and a connection).
    let downloads = SubscriberSlots(limit: 4)

    /// The largest JSON body accepted.
    static let maximumJSONBytes = 256 * 1024
    /// The most conversations one inbox page lists.
    static let maximumPage = 500

    func addRoutes(to router: Router<LocalRequestContext>) {
        addAccountRoutes(to: router)
        addConversationRoutes(to: router)
        addMessageRoutes(to: router)
        addGroupRoutes(to: router)
        addBackupRoutes(to: router)
        addUsernameRoutes(to: router)
        addPushRoutes(to: router)
    }

    // MARK: Helpers

    /// Runs `route`, turning a failure into a JSON error answer.
    static func answer(_ route: () async throws -> Response) async -> Response {
        do {
            return try await route()
        } catch let error as HTTPError {
            return JSONResponse.error(error.body ?? error.status.reasonPhrase, status: error.status)
        } catch let error as WebRequestError {
            return JSONResponse.error(error.message, status: error.status)
        } catch let error as ParleyError {
            let status: HTTPResponse.Status =
                switch error {
                case .server(let failure) where failure.status == 404: .notFound
                case .server(let failure) where failure.status == nil: .badGateway
                case .server(let failure) where failure.status == 429: .tooManyRequests
                case .databaseCorrupted, .wrongDatabaseKey, .keyFile, .storeOutsideTransaction: .internalServerError
                default: .badRequest
                }
            let message =
                if case .server(let failure) = error, failure.status == 404 { "no such account: \(error)" } else { "\(error)" }
            return JSONResponse.error(message, status: status)
        } catch {
            return JSONResponse.error("\(error)", status: .internalServerError)
        }
    }

    /// `value` as a JSON answer.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        try JSONResponse.make(value, status: status)
    }

    /// `code` as an SVG image (drawn by the page with `<img>`: nothing in it runs).
    static func svg(_ code: QRCode) -> Response {
        Response(
            status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: code.svg())))
    }

    /// An empty success.
    static var done: Response { Response(status: .noContent) }

    /// A request's JSON body as `T`.
    static func body<T: Decodable>(_ type: T.Type, of request: Request) async throws -> T {
        let buffer = try await request.body.collect(upTo: maximumJSONBytes)
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch {
            throw WebRequestError(status: .badRequest, message: "the request body is not the JSON this route takes")
        }
    }

    /// A path parameter as a number.
    static func integer(_ name: String, of context: LocalRequestContext) throws -> Int64 {
        guard let value = context.parameters.get(name).flatMap({ Int64($0) }) else {
            throw WebRequestError(status: .badRequest, message: "\(name) must be a number")
        }
        return value
    }

    /// A query parameter as a number within `range`, `fallback` when absent.
    static func query(_ name: String, of request: Request, in range: ClosedRange<Int64>, fallback: Int64? = nil) throws -> Int64? {
        guard let text = request.uri.queryParameters[Substring(name)] else { return fallback }
        guard let value = Int64(text), range.contains(value) else {
            throw WebRequestError(status: .badRequest, message: "\(name) must be a number in \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }
}

/// A request the page got wrong, with the status and words to answer.
struct WebRequestError: Error {
    let status: HTTPResponse.Status
    let message: String
}
