import Foundation
import Hummingbird
import ParleyAPI

/// Every error the server answers with: an HTTP status, a stable code and a message, sent as
/// ``ParleyAPI/APIErrorBody`` JSON.
public enum ServerError: Error, HTTPResponseError, Sendable {
    /// Malformed or invalid input (400 `bad_request`).
    case badRequest(String)
    /// Missing or wrong device credentials (401 `unauthorized`).
    case unauthorized
    /// A group request without a valid group auth credential presentation (401 `unauthorized`).
    case groupCredentialRequired
    /// Authenticated but not allowed (403 `forbidden`).
    case forbidden(String)
    /// No such route, account, device or envelope (404 `not_found`).
    case notFound(String)
    /// A conflict with stored state, with its own code (409).
    case conflict(code: String, message: String)
    /// The body is over its limit (413 `payload_too_large`).
    case payloadTooLarge(Int)
    /// A per-account rate limit refused the request (429 `rate_limited`, with `Retry-After`).
    case tooManyRequests(retryAfterSeconds: Int)
    /// A PIN backup restore presented the wrong verifier (403 `wrong_pin`, with the guesses left; at zero the backup
    /// has been deleted).
    case wrongPIN(attemptsLeft: Int)
    /// What was asked for existed and was deliberately removed (410), with its own code.
    case gone(code: String, message: String)
    /// The `Range` of a download lies outside the blob (416 `range_not_satisfiable`).
    case rangeNotSatisfiable(size: Int64)
    /// Another client error the HTTP layer reported (its status kept).
    case clientError(HTTPResponse.Status, String)
    /// An unexpected failure (500 `internal_error`); the detail is logged, not sent.
    case internalFailure(String)
    /// 503: the server cannot serve this request as configured (the message says what to fix).
    case unavailable(code: String, message: String)

    /// The HTTP status of the answer.
    public var status: HTTPResponse.Status {
        switch self {
        case .badRequest: return .badRequest
        case .unauthorized, .groupCredentialRequired: return .unauthorized
        case .forbidden: return .forbidden
        case .notFound: return .notFound
        case .conflict: return .conflict
        case .payloadTooLarge: return .contentTooLarge
        case .tooManyRequests: return .tooManyRequests
        case .wrongPIN: return .forbidden
        case .gone: return .gone
        case .rangeNotSatisfiable: return .rangeNotSatisfiable
        case .clientError(let status, _): return status
        case .internalFailure: return .internalServerError
        case .unavailable: return .serviceUnavailable
        }
    }

    var body: APIErrorBody {
        switch self {
        case .badRequest(let message): return APIErrorBody(code: "bad_request", message: message)
        case .unauthorized: return APIErrorBody(code: "unauthorized", message: "missing or wrong device credentials")
        case .groupCredentialRequired:
            return APIErrorBody(code: "unauthorized", message: "a group request needs a valid group auth credential presentation")
        case .forbidden(let message): return APIErrorBody(code: "forbidden", message: message)
        case .notFound(let message): return APIErrorBody(code: "not_found", message: message)
        case .conflict(let code, let message): return APIErrorBody(code: code, message: message)
        case .payloadTooLarge(let limit): return APIErrorBody(code: "payload_too_large", message: "request body over \(limit) bytes")
        case .tooManyRequests(let seconds):
            return APIErrorBody(code: "rate_limited", message: "too many requests; retry in \(seconds) s", retryAfter: seconds)
        case .wrongPIN(let left):
            let message =
                left > 0
                ? "wrong PIN; \(left) attempt\(left == 1 ? "" : "s") left"
                : "wrong PIN; no attempts left: the backup has been deleted"
            return APIErrorBody(code: "wrong_pin", message: message, attemptsLeft: left)
        case .gone(let code, let message): return APIErrorBody(code: code, message: message)
        case .rangeNotSatisfiable(let size):
            return APIErrorBody(code: "range_not_satisfiable", message: "the range lies outside the \(size)-byte blob")
        case .clientError(let status, let message):
            return APIErrorBody(code: status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_"), message: message)
        case .internalFailure: return APIErrorBody(code: "internal_error", message: "the server failed to process the request")
        case .unavailable(let code, let message): return APIErrorBody(code: code, message: message)
        }
    }

    /// The JSON error response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try JSONCoding.response(body, status: status)
        switch self {
        case .unauthorized: response.headers[.wwwAuthenticate] = "Basic realm=\"parley\""
        case .groupCredentialRequired: response.headers[.wwwAuthenticate] = "Basic realm=\"parley-groups\""
        case .tooManyRequests(let seconds): response.headers[.retryAfter] = String(seconds)
        case .rangeNotSatisfiable(let size): response.headers[.contentRange] = "bytes */\(size)"
        default: break
        }
        return response
    }
}
