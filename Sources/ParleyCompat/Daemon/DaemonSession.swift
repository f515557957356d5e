import Foundation
import ParleyKit

/// Serves `parley`'s operations as JSON-RPC 2.0, signal-cli's daemon protocol: requests (single or batched) in,
/// responses out, and `receive` notifications for incoming messages. Two dialects share the door: signal-cli's methods
/// (``SignalCLIMethods``) and Parley's own seven (`send` with `text`, `receive`, `conversations`, `history`,
/// `safetyNumber`, `trust` without a safety number, `devices`).
struct DaemonSession: Sendable {
    /// How requests arrive.
    enum Transport: Sendable {
        /// One JSON object per line (stdin/stdout, a Unix socket): notifications are pushed on the same stream.
        case lines
        /// `POST /api/v1/rpc`: notifications travel as server-sent events instead, so subscriptions are not offered.
        case http
    }

    /// Most requests one batch holds (each call's own bounds would otherwise multiply with its length).
    static let maximumBatchLength = 100

    /// The account or accounts served; a request picks one with signal-cli's `account` parameter.
    let accounts: DaemonAccounts
    let transport: Transport
    /// Where line-transport responses and notifications go.
    let write: @Sendable (Data) -> Void
    /// Awaited after each of this session's own writes (an answer, a catch-up's notification): a line transport holds
    /// the session back there while its client has not read what was written.
    var pace: @Sendable () async -> Void = {}
    /// The stored messages this client was told of (a catch-up beside live notifications tells each once).
    let told = ToldMessages()

    /// Handles one request line; requests with an id get a response line, notifications (no id) do not.
    func handle(line: String) async {
        if let response = await respond(to: Data(line.utf8)) {
            write(response + Data("\n".utf8))
            await pace()
        }
    }

    /// Answers a request line longer than `limit` bytes (the connection closes after it: nothing more is read).
    func refuseLine(longerThan limit: Int) {
        write(
            Self.encode(
                JSONRPCResponse<JSONValue>(
                    id: .null, result: nil, error: .invalidRequest("a request line longer than \(limit) bytes"),
                    method: nil, params: nil)) + Data("\n".utf8))
    }

    /// The encoded response to a request body (one request, or a batch array); `nil` when there is nothing to answer
    /// (notifications only).
    func respond(to body: Data) async -> Data? {
        let parsed: JSONValue
        do {
            parsed = try JSONDecoder().decode(JSONValue.self, from: body)
        } catch {
            return Self.encode(
                JSONRPCResponse<JSONValue>(id: .null, result: nil, error: .parse(Self.describe(error)), method: nil, params: nil))
        }
        guard case .array(let batch) = parsed else {
            return await answer(parsed).map(Self.encode)
        }
        guard !batch.isEmpty else {
            return Self.encode(
                JSONRPCResponse<JSONValue>(id: .null, result: nil, error: .invalidRequest("an empty batch"), method: nil, params: nil))
        }
        // Every call's own bounds would multiply with the batch's length: a batch is bounded too.
        guard batch.count <= Self.maximumBatchLength else {
            let refusal = JSONRPCError.invalidRequest("a batch of \(batch.count) requests: at most \(Self.maximumBatchLength) per batch")
            return Self.encode(JSONRPCResponse<JSONValue>(id: .null, result: nil, error: refusal, method: nil, params: nil))
        }
        var answers: [JSONRPCResponse<AnyEncodable>] = []
        for item in batch { if let answer = await answer(item) { answers.append(answer) } }
        return answers.isEmpty ? nil : Self.encode(answers)
    }

    /// The response to one request, or `nil` for a notification.
    private func answer(_ item: JSONValue) async -> JSONRPCResponse<AnyEncodable>? {
        let request: JSONRPCRequest
        do {
            request = try JSONDecoder().decode(JSONRPCRequest.self, from: try JSONEncoder().encode(item))
        } catch {
            let id: JSONValue = if case .object(let fields) = item { fields["id"] ?? .null } else { .null }
            return JSONRPCResponse(id: id, result: nil, error: .invalidRequest(Self.describe(error)), method: nil, params: nil)
        }
        guard request.jsonrpc == "2.0" else {
            return JSONRPCResponse(
                id: request.id ?? .null, result: nil, error: .invalidRequest("only jsonrpc version 2.0 is supported"),
                method: nil, params: nil)
        }
        do {
            var params = request.params ?? [:]
            let result: AnyEncodable
            if request.method == "version" {
                result = AnyEncodable(SignalCLIMethods.version)
            } else {
                let account = try accounts.select(params.removeValue(forKey: "account"))
                result = try await dispatch(request.method, params, on: account)
            }
            return request.id == nil ? nil : JSONRPCResponse.success(request.id, result)
        } catch {
            return request.id == nil
                ? nil
                : JSONRPCResponse(id: request.id, result: nil, error: JSONRPCError(failure: error), method: nil, params: nil)
        }
    }

    /// Tells a line-transport client about an incoming message: signal-cli's `{"account", "envelope"}` parameters, with
    /// Parley's own view of the message beside them under `message`.
    func notify(_ event: DaemonEvent) {
        if let stored = event.message, !told.record(stored.id, of: event.account) { return }
        var params = event.signalCLI
        if case .object(var fields) = params, let stored = event.message,
            let message = try? JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(stored))
        {
            fields["message"] = message
            params = .object(fields)
        }
        write(Self.encode(JSONRPCResponse.notification("receive", params)) + Data("\n".utf8))
    }

    private func dispatch(_ method: String, _ params: [String: JSONValue], on account: DaemonAccount) async throws -> AnyEncodable {
        let client = account.client
        let given = SignalCLIParameterReader(values: params)
        func recipient() async throws -> String {
            guard let name = try given.string("recipient") else { throw JSONRPCError.invalidParams("recipient is required") }
            // Named as signal-cli's methods name people: a username, an account id, u:NAME or +DIGITS.
            return try await SignalCLIAddress.resolve(name, with: client)
        }
        let verifiesSafetyNumber = ["trustAllKnownKeys", "verifiedSafetyNumber", "verifiedFingerprint"].contains { params[$0] != nil }
        switch method {
        case "send" where params["text"] != nil:
            let accountId = try await recipient()
            let draft = MessageDraft(
                body: try given.string("text") ?? "",
                attachments: try given.list("attachments", "attachments").map { try OutgoingAttachment(file: URL(fileURLWithPath: $0)) },
                replyTo: try given.integer("replyTo"))
            // This message's own state: `listen`'s job pass may have sent it before this request's pass began.
            let report = try await client.send(draft, to: .person(accountId), attempt: .dueJobs, uploadProgress: { _, _, _ in })
            return AnyEncodable([
                "messageId": report.messageId ?? 0, "sent": report.status == .sent ? 1 : 0,
                "failed": report.status == .failed ? 1 : 0,
            ])
        case "receive":
            // Keys are `listen`'s to look after; what is queued goes after every client has heard what came.
            let received = try await client.receive(attempt: .queueOnly, maintainingKeys: false)
            // What this drain stored, the socket's `listen` will not see again: every client hears of it from here, and
            // of the acts each message released, right after it.
            for outcome in received.outcomes {
                accounts.announce(outcome, of: account)
                await pace()
            }
            _ = try await client.sendQueued(attempt: .dueJobs, uploadProgress: { _, _, _ in })
            return AnyEncodable(["received": received.envelopes.count])
        case "conversations":
            return AnyEncodable(try client.conversations())
        case "history":
            guard let conversation = try client.conversationId(with: try await recipient()) else {
                return AnyEncodable(MessagePage(messages: [], nextCursor: nil))
            }
            let limit = Int(try given.integer("limit") ?? 20)
            guard (1...500).contains(limit) else { throw JSONRPCError.invalidParams("limit must be 1…500") }
            return AnyEncodable(try client.history(conversationId: conversation, before: try given.integer("before"), limit: limit))
        case "safetyNumber":
            return AnyEncodable(["safetyNumber": try client.safetyNumber(with: try await recipient())])
        case "trust" where !verifiesSafetyNumber:
            let accountId = try await recipient()
            try client.acceptIdentity(of: accountId)
            return AnyEncodable(["trusted": accountId])
        case "devices":
            return AnyEncodable(try await client.devices())
        case "subscribeReceive", "unsubscribeReceive":
            // signal-cli offers subscriptions on streams only; here every client of a stream is always subscribed.
            guard transport == .lines else { throw JSONRPCError.methodNotFound(method) }
            // Parley's catch-up: `since` (the `message.id` of the last notification seen) first replays every message
            // the account stored after it, from the database; each message is told once, beside live notifications.
            if method == "subscribeReceive", let since = params["since"] {
                guard let cursor = since.integer, cursor >= 0 else { throw JSONRPCError.invalidParams("since must be a message id") }
                try await MissedMessages.replay(account, after: cursor) { event in
                    notify(event)
                    await pace()
                }
            }
            return AnyEncodable(method == "subscribeReceive" ? JSONValue.integer(0) : JSONValue.object([:]))
        default:
            return AnyEncodable(try await account.methods.call(method, params))
        }
    }

    private static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value))
            ?? Data(#"{"jsonrpc":"2.0","error":{"code":-32603,"message":"unencodable response"},"id":null}"#.utf8)
    }
}

/// An incoming message as the daemon hands it to its clients.
struct DaemonEvent: Sendable {
    /// The account that received it (signal-cli's name for it).
    let account: String
    /// Parley's view of the message; `nil` for an act on earlier messages (a reaction, a delete, a receipt).
    let message: StoredMessage?
    /// signal-cli's `receive` parameters for it (``SignalCLIEnvelope``).
    let signalCLI: JSONValue
}

/// Type erasure for results of different types.
struct AnyEncodable: Encodable, Sendable {
    private let encodeValue: @Sendable (Encoder) throws -> Void

    init<T: Encodable & Sendable>(_ value: T) {
        encodeValue = { try value.encode(to: $0) }
    }

    func encode(to encoder: Encoder) throws { try encodeValue(encoder) }
}

extension DaemonSession {
    /// A request that did not decode, in words: the field and what was expected, never Swift's own error text.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "the request could not be read" }
        func path(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return path.isEmpty ? "the request" : path
        }
        switch error {
        case .keyNotFound(let key, _): return "missing field \(key.stringValue)"
        case .typeMismatch(let type, let context): return "\(path(context)) is not \(Self.name(of: type))"
        case .valueNotFound(let type, let context): return "\(path(context)) is null, expected \(Self.name(of: type))"
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context)) is not a valid value"
        @unknown default: return "the request could not be read"
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "a boolean"
        case is Int.Type, is Int64.Type, is UInt64.Type, is UInt32.Type, is Double.Type: return "a number"
        default: return "of the expected type"
        }
    }
}
