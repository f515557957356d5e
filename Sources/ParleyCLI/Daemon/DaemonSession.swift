import Foundation
import ParleyKit

/// Serves `parley`'s operations as JSON-RPC 2.0 over newline-delimited JSON, signal-cli's daemon mode: one request
/// per line in, one response per line out, and `receive` notifications for incoming messages.
struct DaemonSession: Sendable {
    let client: ParleyClient
    let write: @Sendable (Data) -> Void

    /// Handles one request line; requests with an id get a response, notifications (no id) do not.
    func handle(line: String) async {
        let request: JSONRPCRequest
        do {
            request = try JSONDecoder().decode(JSONRPCRequest.self, from: Data(line.utf8))
        } catch {
            respond(JSONRPCResponse<JSONValue>(id: .null, result: nil, error: .parse("\(error)"), method: nil, params: nil))
            return
        }
        guard request.jsonrpc == "2.0" else {
            respond(JSONRPCResponse<JSONValue>(id: request.id ?? .null, result: nil, error: .invalidRequest("jsonrpc must be \"2.0\""),
                                               method: nil, params: nil))
            return
        }
        do {
            let result = try await dispatch(request.method, request.params ?? [:])
            if request.id != nil { respond(JSONRPCResponse.success(request.id, result)) }
        } catch let error as JSONRPCError {
            respond(JSONRPCResponse<JSONValue>(id: request.id ?? .null, result: nil, error: error, method: nil, params: nil))
        } catch {
            respond(JSONRPCResponse<JSONValue>(id: request.id ?? .null, result: nil,
                                               error: JSONRPCError(code: -32000, message: "\(error)"), method: nil, params: nil))
        }
    }

    /// Tells the client about an incoming message.
    func notify(_ message: StoredMessage) {
        respond(JSONRPCResponse.notification("receive", message))
    }

    private func dispatch(_ method: String, _ params: [String: JSONValue]) async throws -> AnyEncodable {
        func recipient() async throws -> String {
            guard let name = params["recipient"]?.string else { throw JSONRPCError.invalidParams("recipient is required") }
            return try await client.resolve(name)
        }
        switch method {
        case "send":
            let accountId = try await recipient()
            let id = try client.sender.enqueue(
                body: params["text"]?.string ?? "", to: accountId,
                attachments: (params["attachments"]?.strings ?? []).map { URL(fileURLWithPath: $0) }, replyTo: params["replyTo"]?.integer)
            let report = try await client.runJobs()
            return AnyEncodable(["messageId": id, "sent": Int64(report.completed), "failed": Int64(report.failed)])
        case "receive":
            let outcomes = try await client.receiveOnce()
            _ = try await client.runJobs()
            return AnyEncodable(["received": outcomes.count])
        case "conversations":
            return AnyEncodable(try client.conversations())
        case "history":
            guard let thread = try client.threadId(with: try await recipient()) else { return AnyEncodable(MessagePage(messages: [], nextCursor: nil)) }
            let limit = Int(params["limit"]?.integer ?? 20)
            guard (1...500).contains(limit) else { throw JSONRPCError.invalidParams("limit must be 1…500") }
            return AnyEncodable(try client.history(threadId: thread, before: params["before"]?.integer, limit: limit))
        case "safetyNumber":
            return AnyEncodable(["safetyNumber": try client.safetyNumber(with: try await recipient())])
        case "trust":
            let accountId = try await recipient()
            try client.acceptIdentity(of: accountId)
            return AnyEncodable(["trusted": accountId])
        case "devices":
            return AnyEncodable(try await client.devices())
        default:
            throw JSONRPCError.methodNotFound(method)
        }
    }

    private func respond(_ response: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(response) else { return }
        write(data + Data("\n".utf8))
    }
}

/// Type erasure for results of different types.
struct AnyEncodable: Encodable, Sendable {
    private let encodeValue: @Sendable (Encoder) throws -> Void

    init<T: Encodable & Sendable>(_ value: T) {
        encodeValue = { try value.encode(to: $0) }
    }

    func encode(to encoder: Encoder) throws { try encodeValue(encoder) }
}
