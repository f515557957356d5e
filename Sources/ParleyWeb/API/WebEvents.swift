import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ParleyKit
import ParleyLocalService

/// `GET /api/events`: what happens, as server-sent events fed by ParleyClient's event stream — `message` (one stored:
/// its conversation, author and a preview for a notification), `changed` (an act on earlier messages: a reaction, an
/// edit, a delete, a receipt, a group change), `typing`, `sendFailed` and `connection` (the server's socket up or
/// down) — with a `:` comment every 15 s. A few streams at once; one whose page leaves an event untaken for 30 s is
/// closed (the page reconnects and reloads what it shows).
struct WebEvents: Sendable {
    let client: ParleyClient
    let receiver: WebReceiver
    let streams = SubscriberSlots(limit: 8)

    static let keepAliveInterval: Duration = .seconds(15)
    static let stallLimit: Duration = .seconds(30)

    struct Message: Encodable {
        let conversationId: Int64
        let messageId: Int64
        let outgoing: Bool
        let author: String?
        let preview: String?
    }

    struct Typing: Encodable {
        let accountId: String
        let username: String?
        let groupId: String?
        let started: Bool
    }

    struct SendFailed: Encodable {
        let messageId: Int64?
        let reason: String
    }

    struct Connection: Encodable { let up: Bool }

    func addRoutes(to router: Router<LocalRequestContext>) {
        router.get("/api/events") { _, context in
            guard let lease = streams.lease() else {
                return Response(
                    status: .ok, headers: [.contentType: "text/event-stream"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: "retry: 5000\n: too many event streams\n\n")))
            }
            let hold = StreamHold(lease, limit: Self.stallLimit, closing: context.channel, waitingForHead: true)
            let events = client.events()
            let online = await receiver.online
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    hold.watch.stopWaiting()
                    if let online {
                        try await hold.watch.write {
                            try await writer.write(ByteBuffer(string: Self.frame("connection", Connection(up: online))))
                        }
                    }
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        let (frames, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1_000))
                        group.addTask {
                            for await event in events { if let frame = await frame(for: event) { continuation.yield(frame) } }
                            continuation.finish()
                        }
                        group.addTask {
                            while !Task.isCancelled {
                                try await Task.sleep(for: Self.keepAliveInterval)
                                continuation.yield(":\n\n")
                            }
                        }
                        for await frame in frames {
                            try await hold.watch.write { try await writer.write(ByteBuffer(string: frame)) }
                        }
                        group.cancelAll()
                    }
                    try await writer.finish(nil)
                })
        }
    }

    /// The server-sent event for `event`, or `nil` for what the page does not show. A message from someone this device
    /// knows only by account id (a first message, sealed) has its author's username looked up first, so the page names them.
    func frame(for event: ClientEvent) async -> String? {
        switch event {
        case .received(.stored(let id)):
            guard var message = try? client.message(id: id) else { return nil }
            if !message.outgoing, message.authorUsername == nil {
                await client.nameNewCorrespondents()
                message = (try? client.message(id: id)) ?? message
            }
            return Self.frame(
                "message",
                Message(
                    conversationId: message.conversationId, messageId: id, outgoing: message.outgoing,
                    author: message.authorUsername ?? message.authorAccountId, preview: message.body.map { String($0.prefix(80)) }))
        case .received(.typing(let accountId, _, let action, let groupId)):
            let name = try? client.usernames(of: [accountId])[accountId]
            return Self.frame(
                "typing",
                Typing(accountId: accountId, username: name, groupId: groupId.map { GroupID($0).hex }, started: action == .started))
        case .received(.acted), .received(.applied):
            return "event: changed\ndata: {}\n\n"
        case .received:
            return nil
        case .sendFailed(let messageId, _, let reason):
            return Self.frame("sendFailed", SendFailed(messageId: messageId, reason: reason))
        case .connection(let up):
            return Self.frame("connection", Connection(up: up))
        }
    }

    /// One event named `name` whose data is `value` as JSON.
    static func frame(_ name: String, _ value: some Encodable) -> String {
        let data = (try? JSONEncoder().encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return "event: \(name)\ndata: \(data)\n\n"
    }
}
