import Foundation
import ParleyAPI

extension ParleyError {
    /// A failed call to the Parley server.
    public enum Server: Sendable, Equatable, CustomStringConvertible {
        /// The server answered with an error status and, usually, its JSON error body.
        case rejected(status: Int, body: APIErrorBody?)
        /// The server's answer did not decode as the expected type.
        case malformedResponse(String)
        /// The server could not be reached or the connection failed.
        case transport(String)

        /// The HTTP status, when the server answered.
        public var status: Int? {
            if case .rejected(let status, _) = self { return status }
            return nil
        }

        /// The server's error code (`rate_limited`, `unauthorized`, …), when it sent one.
        public var code: String? {
            if case .rejected(_, let body) = self { return body?.code }
            return nil
        }

        /// `data` decoded as the server's JSON answer of type `T`, or ``malformedResponse(_:)``.
        static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
            do {
                return try JSONDecoder().decode(T.self, from: data)
            } catch {
                throw ParleyError.server(.malformedResponse("\(T.self): \(error)"))
            }
        }

        /// The error for an answer with `status` outside the expected ones, with the server's JSON error `body` if any.
        static func unexpected(status: Int, body: Data) -> ParleyError.Server {
            .rejected(status: status, body: try? JSONDecoder().decode(APIErrorBody.self, from: body))
        }

        public var description: String {
            switch self {
            case .rejected(let status, let body?): return "server refused (\(status) \(body.code)): \(body.message)"
            case .rejected(let status, nil): return "server refused with status \(status)"
            case .malformedResponse(let detail): return "unexpected answer from the server: \(detail)"
            case .transport(let detail): return "cannot reach the server: \(detail)"
            }
        }
    }
}

extension ParleyError {
    /// Whether the server answered 404 about the account a message was for: it does not exist (deleted, or never
    /// registered) or has no device with keys. A send to several accounts (a group) leaves it out; the others still
    /// get the message.
    var namesNoAccount: Bool {
        if case .server(let error) = self { return error.status == 404 }
        return false
    }

    /// Whether the server answered 429: this send waits for its retry, and a send to several accounts (a group) still
    /// goes to the others first.
    var isRateLimited: Bool {
        if case .server(let error) = self { return error.status == 429 }
        return false
    }
}
