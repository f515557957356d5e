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

/// A JSON-RPC error object (codes from the specification; -32000 for Parley's own failures).
struct JSONRPCError: Encodable, Error {
    let code: Int
    let message: String

    static func parse(_ detail: String) -> JSONRPCError { JSONRPCError(code: -32700, message: "parse error: \(detail)") }
    static func invalidRequest(_ detail: String) -> JSONRPCError { JSONRPCError(code: -32600, message: "invalid request: \(detail)") }
    static func methodNotFound(_ method: String) -> JSONRPCError { JSONRPCError(code: -32601, message: "no method \(method)") }
    static func invalidParams(_ detail: String) -> JSONRPCError { JSONRPCError(code: -32602, message: "invalid params: \(detail)") }
}
