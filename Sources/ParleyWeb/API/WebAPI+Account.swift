import Foundation
import Hummingbird
import ParleyKit
import ParleyLocalService

/// The account routes: what the page shows first (`GET /api/state`), registering from the page, the settings, safety
/// numbers and trusting a changed one, and search in history.
extension WebAPI {
    /// What the page needs first.
    struct State: Encodable {
        let registered: Bool
        let username: String?
        let accountId: String?
        let deviceId: UInt32?
        let server: String?
        /// Whether the server's socket is up (`nil` until the first try).
        let online: Bool?
        let readReceipts: Bool
        let typingIndicators: Bool
        /// Waiting for a primary device to approve this machine's link code.
        let awaitingLink: Bool
        /// Why the last link did not complete.
        let linkFailure: String?
    }

    struct LinkCode: Encodable { let code: String }
    struct Approval: Decodable { let code: String }

    struct Device: Encodable {
        let deviceId: UInt32
        let name: String?
        let created: UInt64
        /// This machine.
        let current: Bool
    }

    /// A registration without a plain name: the account goes by `nickname.number` (a random number when empty).
    struct Registration: Decodable {
        let nickname: String
        let number: String?
        let invite: String?
    }

    struct SettingsChange: Decodable {
        let readReceipts: Bool?
        let typingIndicators: Bool?
    }

    struct SafetyNumber: Encodable {
        let accountId: String
        let username: String?
        /// Twelve groups of five digits.
        let digits: String
    }

    struct SearchResult: Encodable {
        let message: StoredMessage
        /// The conversation's title: a group's, or the other person's username.
        let title: String
    }

    func addAccountRoutes(to router: Router<LocalRequestContext>) {
        router.get("/api/state") { _, _ in
            await Self.answer {
                let account = try client.account()
                let credentials = account?.credentials
                let settings = try client.settings()
                return try Self.json(
                    State(
                        registered: credentials != nil, username: credentials == nil ? nil : account?.username,
                        accountId: credentials?.accountId, deviceId: credentials?.deviceId, server: client.serverURL,
                        online: await receiver.online, readReceipts: settings.readReceipts, typingIndicators: settings.typingIndicators,
                        awaitingLink: await receiver.awaitingLink, linkFailure: await receiver.linkFailure))
            }
        }
        router.post("/api/register") { request, _ in
            await Self.answer {
                let registration = try await Self.body(Registration.self, of: request)
                guard (try? client.credentials()) == nil else {
                    throw WebRequestError(status: .conflict, message: "this account is registered already")
                }
                let invite = registration.invite.flatMap { $0.isEmpty ? nil : $0 }
                let number = registration.number.flatMap { $0.isEmpty ? nil : $0 }
                _ = try await client.register(
                    nickname: registration.nickname, discriminator: number, deviceName: "parley web", inviteToken: invite)
                await receiver.start()
                return Self.done
            }
        }
        router.post("/api/link") { _, _ in
            await Self.answer {
                guard (try? client.credentials()) == nil else {
                    throw WebRequestError(status: .conflict, message: "this account is registered already")
                }
                return try Self.json(LinkCode(code: await receiver.startLink()), status: .created)
            }
        }
        router.get("/api/devices") { _, _ in
            await Self.answer {
                let current = try client.credentials().deviceId
                return try Self.json(
                    try await client.devices().map {
                        Device(deviceId: $0.deviceId, name: $0.name, created: $0.created, current: $0.deviceId == current)
                    })
            }
        }
        router.post("/api/devices") { request, _ in
            await Self.answer {
                let code = try await Self.body(Approval.self, of: request).code.trimmingCharacters(in: .whitespacesAndNewlines)
                try await client.approveLink(try LinkInvitation(code: code))
                return Self.done
            }
        }
        router.post("/api/devices/:id/remove") { _, context in
            await Self.answer {
                guard let id = UInt32(exactly: try Self.integer("id", of: context)) else {
                    throw WebRequestError(status: .badRequest, message: "no device with that id")
                }
                try await client.removeDevice(id)
                return Self.done
            }
        }
        router.post("/api/settings") { request, _ in
            await Self.answer {
                let change = try await Self.body(SettingsChange.self, of: request)
                try client.updateSettings { settings in
                    if let value = change.readReceipts { settings.readReceipts = value }
                    if let value = change.typingIndicators { settings.typingIndicators = value }
                }
                return Self.done
            }
        }
        router.get("/api/safety-number/:account") { _, context in
            await Self.answer {
                let accountId = try context.parameters.require("account")
                let digits = try client.safetyNumber(with: accountId)
                let groups = digits.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
                return try Self.json(
                    SafetyNumber(accountId: accountId, username: try client.usernames(of: [accountId])[accountId], digits: groups))
            }
        }
        router.get("/api/safety-number/:account/qr") { _, context in
            await Self.answer {
                let scannable = try client.scannableSafetyNumber(with: try context.parameters.require("account"))
                return Self.svg(try QRCode(bytes: [UInt8](scannable), errorCorrection: .medium))
            }
        }
        router.get("/api/link/qr") { _, _ in
            await Self.answer {
                guard let code = await receiver.linkCode else {
                    throw WebRequestError(status: .notFound, message: "no link code: start linking first")
                }
                return Self.svg(try QRCode(bytes: Array(code.utf8), errorCorrection: .medium))
            }
        }
        router.post("/api/trust/:account") { _, context in
            await Self.answer {
                try client.acceptIdentity(of: try context.parameters.require("account"))
                return Self.done
            }
        }
        router.get("/api/search") { request, _ in
            await Self.answer {
                let text = String(request.uri.queryParameters["q"] ?? "")
                let limit = Int(try Self.query("limit", of: request, in: 1...200, fallback: 50) ?? 50)
                let found = try client.search(text, limit: limit)
                // The titles of the conversations found (at most `limit`), not of the whole inbox.
                var titles: [Int64: String] = [:]
                for id in Set(found.map(\.conversationId)) {
                    titles[id] = try client.conversation(id: id).map { $0.title ?? $0.username ?? $0.accountId }
                }
                return try Self.json(found.map { SearchResult(message: $0, title: titles[$0.conversationId] ?? "") })
            }
        }
    }
}
