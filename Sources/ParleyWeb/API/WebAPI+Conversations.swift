import Foundation
import Hummingbird
import ParleyKit
import ParleyLocalService

/// The inbox and a conversation: pages of each, sending (with uploaded attachments, replies and mentions), read
/// receipts, typing, mute, pins and the disappearing-message timer.
extension WebAPI {
    struct Inbox: Encodable {
        let conversations: [ConversationSummary]
        /// How many conversations there are in all.
        let total: Int
    }

    struct Draft: Decodable {
        /// An existing conversation…
        let conversationId: Int64?
        /// …or a person, by username or account id (a new conversation).
        let to: String?
        let body: String
        let replyTo: Int64?
        /// Uploaded files (``WebUploads``) to attach.
        let uploads: [String]?
        /// People mentioned: each an account and the UTF-16 range of the text that names them.
        let mentions: [Mention]?
    }

    struct Sent: Encodable {
        let report: Report
        let conversationId: Int64?

        struct Report: Encodable {
            let status: String
            let messageId: Int64?
            let timestamp: UInt64?
            let failure: String?
        }
    }

    struct Uploaded: Encodable {
        let id: String
        let size: Int
    }

    struct Typing: Decodable { let started: Bool }
    struct Mute: Decodable { let until: UInt64 }
    struct Pin: Decodable { let pinned: Bool }
    struct Timer: Decodable { let seconds: UInt32 }

    struct Person: Encodable {
        let accountId: String
        let username: String?
    }

    func addConversationRoutes(to router: Router<LocalRequestContext>) {
        router.get("/api/conversations") { request, _ in
            await Self.answer {
                let offset = Int(try Self.query("offset", of: request, in: 0...Int64(Int32.max), fallback: 0) ?? 0)
                let limit = Int(try Self.query("limit", of: request, in: 1...Int64(Self.maximumPage), fallback: 100) ?? 100)
                return try Self.json(
                    Inbox(conversations: try client.conversations(offset: offset, limit: limit), total: try client.conversationCount()))
            }
        }
        router.get("/api/conversations/:id/messages") { request, context in
            await Self.answer {
                let id = try Self.integer("id", of: context)
                let before = try Self.query("before", of: request, in: 0...Int64.max)
                let limit = Int(try Self.query("limit", of: request, in: 1...200, fallback: 50) ?? 50)
                uploads.removeFinished()
                return try Self.json(try client.history(conversationId: id, before: before, limit: limit))
            }
        }
        router.post("/api/conversations/:id/read") { _, context in
            await Self.answer {
                _ = try await client.markRead(conversationId: try Self.integer("id", of: context), attempt: .queueOnly)
                return Self.done
            }
        }
        router.post("/api/conversations/:id/mute") { request, context in
            await Self.answer {
                try client.mute(
                    conversationId: try Self.integer("id", of: context), until: try await Self.body(Mute.self, of: request).until)
                return Self.done
            }
        }
        router.post("/api/conversations/:id/pin") { request, context in
            await Self.answer {
                let pinned = try await Self.body(Pin.self, of: request).pinned
                try client.pin(conversationId: try summary(try Self.integer("id", of: context)).conversationId, pinned)
                return Self.done
            }
        }
        router.post("/api/conversations/:id/timer") { request, context in
            await Self.answer {
                let seconds = try await Self.body(Timer.self, of: request).seconds
                let conversation = try summary(try Self.integer("id", of: context))
                guard conversation.groupId == nil else {
                    throw WebRequestError(status: .badRequest, message: "a group's disappearing-message timer cannot be set yet")
                }
                let report = try await client.setExpireTimer(seconds, with: conversation.accountId, attempt: .dueJobs)
                return try Self.json(Self.present(report))
            }
        }
        router.post("/api/conversations/:id/typing") { request, context in
            await Self.answer {
                let action: TypingAction = try await Self.body(Typing.self, of: request).started ? .started : .stopped
                let conversation = try summary(try Self.integer("id", of: context))
                if let group = conversation.groupId {
                    _ = try await client.sendTyping(action, toGroup: group)
                } else {
                    _ = try await client.sendTyping(action, to: conversation.accountId)
                }
                return Self.done
            }
        }
        router.get("/api/people/:name") { _, context in
            await Self.answer {
                let accountId = try await client.resolve(try context.parameters.require("name"))
                return try Self.json(Person(accountId: accountId, username: try client.usernames(of: [accountId])[accountId]))
            }
        }
        router.post("/api/send") { request, _ in
            await Self.answer {
                let draft = try await Self.body(Draft.self, of: request)
                let recipient: Recipient
                if let id = draft.conversationId {
                    let conversation = try summary(id)
                    recipient = conversation.groupId.map(Recipient.group) ?? .person(conversation.accountId)
                } else if let to = draft.to, !to.isEmpty {
                    recipient = .person(to)
                } else {
                    throw WebRequestError(status: .badRequest, message: "a message needs a conversation or a recipient")
                }
                let ids = draft.uploads ?? []
                guard ids.count <= MessageContent.maximumAttachments else {
                    throw WebRequestError(
                        status: .badRequest, message: "at most \(MessageContent.maximumAttachments) attachments per message")
                }
                let message = MessageDraft(
                    body: draft.body, attachments: try uploads.attachments(ids), replyTo: draft.replyTo, mentions: draft.mentions ?? [])
                let report = try await client.send(message, to: recipient, attempt: .dueJobs)
                if let id = report.messageId { uploads.carried(ids, by: id) }
                uploads.removeFinished()
                let conversationId = try report.messageId.flatMap { try client.message(id: $0)?.conversationId }
                return try Self.json(Sent(report: Self.present(report), conversationId: conversationId))
            }
        }
        router.post("/api/uploads") { request, _ in
            await Self.answer {
                let name = String(request.uri.queryParameters["name"] ?? "attachment")
                let voiceNote = request.uri.queryParameters["voice"] == "1"
                let (id, file) = try uploads.stage(name: name, voiceNote: voiceNote)
                do {
                    guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                        throw WebRequestError(status: .internalServerError, message: "cannot stage the upload")
                    }
                    let handle = try FileHandle(forWritingTo: file)
                    defer { try? handle.close() }
                    var size = 0
                    for try await chunk in request.body {
                        size += chunk.readableBytes
                        guard size <= WebUploads.maximumBytes else {
                            throw WebRequestError(status: .contentTooLarge, message: "a file is at most 100 MiB")
                        }
                        try handle.write(contentsOf: Data(buffer: chunk))
                    }
                    guard size > 0 else { throw WebRequestError(status: .badRequest, message: "the file is empty") }
                    return try Self.json(Uploaded(id: id, size: size), status: .created)
                } catch {
                    uploads.discard(id)
                    throw error
                }
            }
        }
    }

    /// The conversation with local id `id`.
    func summary(_ id: Int64) throws -> ConversationSummary {
        guard let conversation = try client.conversation(id: id) else {
            throw WebRequestError(status: .notFound, message: "no conversation \(id)")
        }
        return conversation
    }

    /// A send report as the page reads it.
    static func present(_ report: SendReport) -> Sent.Report {
        Sent.Report(
            status: report.status.rawValue, messageId: report.messageId, timestamp: report.timestamp, failure: report.failure?.reason)
    }
}
