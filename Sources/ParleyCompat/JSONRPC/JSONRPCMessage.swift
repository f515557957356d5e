import ParleyKit

/// A JSON-RPC 2.0 request or notification from the client.
struct JSONRPCRequest: Decodable {
    let jsonrpc: String
    let id: JSONValue?
    let method: String
    let params: [String: JSONValue]?
}

/// A JSON-RPC 2.0 response or notification to the client.
struct JSONRPCResponse<Result: Encodable>: Encodable {
    let jsonrpc = "2.0"
    let id: JSONValue?
    let result: Result?
    let error: JSONRPCError?
    let method: String?
    let params: Result?

    static func success(_ id: JSONValue?, _ result: Result) -> JSONRPCResponse {
        JSONRPCResponse(id: id ?? .null, result: result, error: nil, method: nil, params: nil)
    }

    static func notification(_ method: String, _ params: Result) -> JSONRPCResponse {
        JSONRPCResponse(id: nil, result: nil, error: nil, method: method, params: params)
    }
}

/// A JSON-RPC error object: the specification's codes, and signal-cli's for failures of the operation itself (-1 a user
/// error such as an unknown recipient, -3 the server unreachable, -4 an untrusted identity, -5 rate limited).
struct JSONRPCError: Encodable, Error {
    let code: Int
    let message: String
    /// Extra detail (signal-cli's `{"response": …}` for a send that reached nobody); `null` otherwise.
    var data: JSONValue = .null

    static func parse(_ detail: String) -> JSONRPCError { JSONRPCError(code: -32700, message: "parse error: \(detail)") }
    static func invalidRequest(_ detail: String) -> JSONRPCError { JSONRPCError(code: -32600, message: "invalid request: \(detail)") }
    static func methodNotFound(_ method: String) -> JSONRPCError {
        JSONRPCError(code: -32601, message: "Method not implemented: \(method)")
    }
    static func userError(_ message: String, data: JSONValue = .null) -> JSONRPCError {
        JSONRPCError(code: -1, message: message, data: data)
    }
    static func invalidParams(_ detail: String) -> JSONRPCError { JSONRPCError(code: -32602, message: "invalid params: \(detail)") }
}

extension JSONRPCError {
    /// The error a failed operation answers with, in signal-cli's codes; the message says what happened in words.
    init(failure error: Error) {
        switch error {
        case let error as JSONRPCError:
            self = error
        case ParleyError.untrustedIdentity(let address):
            self.init(
                code: -4,
                message: "Failed to send message due to untrusted identities: the safety number with \(address) changed; "
                    + "compare it and call trust")
        case ParleyError.server(let failure) where failure.status == 429:
            self.init(code: -5, message: "Failed to send message due to rate limiting: \(error)")
        case ParleyError.server(let failure) where failure.status == nil:
            self.init(code: -3, message: "\(error)")
        case ParleyError.server(let failure) where failure.status == 404:
            self.init(code: -1, message: "The user is not registered: \(error)")
        case is ParleyError:
            self.init(code: -1, message: "\(error)")
        default:
            self.init(code: -32603, message: "An internal error occurred: \(error)")
        }
    }
}
