import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ParleyKit
import ParleyLocalService

/// signal-cli-rest-api's routes about the account itself and the people it knows: identities and trusting them,
/// linked devices (list, link, remove), the PIN, the username, contacts, the served accounts, account settings (the trust mode), and
/// the attachments of received messages (list, download, delete from this device).
extension RestAPIRoutes {
    /// Adds the account, contact and attachment routes to `router`.
    func addAccountRoutes(to router: Router<LocalRequestContext>) {
        router.get("/v1/identities/:number") { _, context in
            try await handle {
                try await list("listIdentities", of: try account(context)) { fields in
                    .object([
                        "number": fields["number"] ?? .null, "uuid": fields["uuid"] ?? .null, "status": .string("TRUSTED_UNVERIFIED"),
                        "fingerprint": .string(""), "added": .string("0"), "safety_number": fields["safetyNumber"] ?? .null,
                    ])
                }
            }
        }
        router.get("/v1/devices/:number") { _, context in
            try await handle {
                try await list("listDevices", of: try account(context)) { fields in
                    .object([
                        "id": fields["id"] ?? .null, "name": fields["name"] ?? .null,
                        "last_seen_timestamp": fields["lastSeenTimestamp"] ?? .null,
                        "creation_timestamp": fields["createdTimestamp"] ?? .null,
                    ])
                }
            }
        }
        router.get("/v1/accounts") { _, _ in
            try Self.json(.array(accounts.all.map { .string($0.signalCLIName) }))
        }
        forward(router, .put, "/v1/identities/:number/trust/:recipient", to: "trust") { body, context in
            [
                "recipient": .string(try context.parameters.require("recipient")),
                "verifiedSafetyNumber": body["verified_safety_number"] ?? .null, "trustAllKnownKeys": body["trust_all_known_keys"] ?? .null,
            ]
        }
        forward(router, .post, "/v1/devices/:number", to: "addDevice") { body, _ in ["uri": body["uri"] ?? .null] }
        forward(router, .delete, "/v1/devices/:number/:device", to: "removeDevice") { _, context in
            guard let device = Int64(try context.parameters.require("device")) else { throw JSONRPCError.userError("Invalid device id") }
            return ["deviceId": .integer(device)]
        }
        forward(router, .post, "/v1/accounts/:number/pin", to: "setPin", answering: .created) { body, _ in ["pin": body["pin"] ?? .null] }
        forward(router, .delete, "/v1/accounts/:number/pin", to: "removePin") { _, _ in [:] }
        // signal-cli-rest-api's username routes: `{"username": NICKNAME or NICKNAME.NN}` → `{username, username_link}`.
        router.post("/v1/accounts/:number/username") { request, context in
            try await handle {
                let body = try await Self.body(request)
                let result = try await call("updateAccount", on: try account(context), ["username": body["username"] ?? .null])
                guard case .object(let fields) = result else { return try Self.json(result) }
                return try Self.json(
                    .object(["username": fields["username"] ?? .null, "username_link": fields["usernameLink"] ?? .null]), status: .created)
            }
        }
        forward(router, .delete, "/v1/accounts/:number/username", to: "updateAccount") { _, _ in ["deleteUsername": .bool(true)] }
        // Parley trusts a key on first use and refuses a changed one until it is trusted: signal-cli's `on-first-use`.
        router.get("/v1/configuration/:number/settings") { _, context in
            try await handle {
                _ = try account(context)
                return try Self.json(.object(["trust_mode": .string(Self.trustMode)]))
            }
        }
        router.post("/v1/configuration/:number/settings") { request, context in
            try await handle {
                _ = try account(context)
                let mode = try await Self.body(request)["trust_mode"]?.string
                guard mode == nil || mode == Self.trustMode else {
                    return try Self.error(
                        "Parley's trust mode is \(Self.trustMode): a changed safety number is refused until it is trusted")
                }
                return Response(status: .noContent)
            }
        }
        router.get("/v1/contacts/:number") { _, context in
            try await handle { try await list("listContacts", of: try account(context), Self.contact) }
        }
        router.get("/v1/contacts/:number/:recipient") { _, context in
            try await handle {
                let wanted = try context.parameters.require("recipient")
                guard case .array(let contacts) = try await call("listContacts", on: try account(context), [:]),
                    case .object(let fields)? = contacts.first(where: { contact in
                        guard case .object(let fields) = contact else { return false }
                        return fields["uuid"]?.string == wanted.lowercased() || fields["number"]?.string == wanted
                    })
                else { return try Self.error("No contact \(wanted) found", status: .notFound) }
                return try Self.json(Self.contact(fields))
            }
        }
        router.get("/v1/attachments") { _, _ in
            try await handle {
                var ids: [JSONValue] = []
                for account in accounts.all {
                    ids += try account.client.receivedAttachments(limit: Self.maximumListedAttachments - ids.count).map {
                        .string(SignalCLIEnvelope.attachmentID($0.id, account: account.accountId))
                    }
                }
                return try Self.json(.array(ids))
            }
        }
        router.get("/v1/attachments/:id") { _, context in
            try await handle {
                guard let (account, id) = try attachment(context) else { return try Self.error("no such attachment", status: .notFound) }
                // Each download holds a fetch from the server, a decrypted file and a connection: a few at once.
                guard let lease = downloads.lease() else {
                    var busy = try Self.error("at most \(downloads.limit) attachment downloads at once", status: .serviceUnavailable)
                    busy.headers[.retryAfter] = "5"
                    return busy
                }
                // The decrypted file leaves the disk once it is open, whatever becomes of the answer.
                let reader: FileHandle
                let size: Int?
                do {
                    (reader, size) = try await UnlinkedFile.open(try account.client.temporaryFile(named: "rest-download")) { file in
                        try await account.client.downloadAttachment(id, to: file, recordingIt: false, progress: { _ in })
                    }
                } catch ParleyError.server(let failure) where failure.status == 404 {
                    return try Self.error("the attachment is no longer on the server", status: .notFound)
                }
                var headers: HTTPFields = [.contentType: "application/octet-stream"]
                if let size { headers[.contentLength] = String(size) }
                // Streamed (up to 100 MiB) a chunk at a time; a client that leaves a chunk untaken for the stall limit has
                // its connection closed.
                let hold = StreamHold(lease, limit: Self.stallLimit, closing: context.channel, waitingForHead: true)
                return Response(status: .ok, headers: headers, body: hold.body(streaming: reader))
            }
        }
        router.delete("/v1/attachments/:id") { _, context in
            try await handle {
                guard let (account, id) = try attachment(context), try await account.client.deleteReceivedAttachment(id)
                else { return try Self.error("no such attachment", status: .notFound) }
                return Response(status: .noContent)
            }
        }
    }

    /// The served account and local attachment id a route's `{id}` names (`ACCOUNTID_LOCALID`, as events name them).
    private func attachment(_ context: LocalRequestContext) throws -> (DaemonAccount, Int64)? {
        guard let (accountId, id) = SignalCLIEnvelope.parseAttachmentID(try context.parameters.require("id")),
            let account = accounts.all.first(where: { $0.accountId == accountId })
        else { return nil }
        return (account, id)
    }

    /// The trust mode Parley keeps, in signal-cli's words.
    static let trustMode = "on-first-use"

    /// The most attachment ids `GET /v1/attachments` lists.
    static let maximumListedAttachments = 10_000

    /// A signal-cli contact in signal-cli-rest-api's shape.
    static func contact(_ fields: [String: JSONValue]) -> JSONValue {
        .object([
            "number": fields["number"] ?? .null, "uuid": fields["uuid"] ?? .null, "name": fields["name"] ?? .null,
            "profile_name": .string(""), "username": fields["username"] ?? .null, "color": .string(""),
            "blocked": fields["isBlocked"] ?? .bool(false),
            "message_expiration": .string("\(fields["messageExpirationTime"]?.integer ?? 0)"),
        ])
    }
}
