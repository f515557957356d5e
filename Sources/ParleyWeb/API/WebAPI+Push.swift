import Foundation
import Hummingbird
import ParleyKit
import ParleyLocalService

/// Where the server wakes this device (``ParleyClient/pushStatus()``): shown, set to a Web Push (UnifiedPush)
/// endpoint with keys made here, or removed; and duplicate content detection's checks: its setup, and a file looked up
/// in the server's hash banks (what `parley dcd verify` and `parley dcd check` do).
extension WebAPI {
    /// This device's push target as the page shows it.
    struct PushView: Encodable {
        /// `webpush`, `apns` or `fcm`; `nil` when none is registered.
        let provider: String?
        /// The Web Push endpoint, or the first characters of an APNs or FCM token.
        let destination: String?
        /// Whether the server can wake this device yet (its keys are uploaded).
        let keysRegistered: Bool
        /// The providers the server can push through.
        let providers: [String]
    }

    struct WebPushRegistration: Decodable { let endpoint: String }
    struct ContentCheckRequest: Decodable { let upload: String }

    /// A file's lookup as the page shows it.
    struct ContentCheckView: Encodable {
        let sha256: String
        let verdict: HashVerdict
    }

    func addPushRoutes(to router: Router<LocalRequestContext>) {
        router.get("/api/push") { _, _ in
            await Self.answer {
                let status = try await client.pushStatus()
                let destination: String? =
                    switch status.target {
                    case .webPush(let endpoint, _, _): endpoint
                    case .apns(let token, _, _): String(token.prefix(12)) + "…"
                    case .fcm(let token): String(token.prefix(12)) + "…"
                    case nil: nil
                    }
                return try Self.json(
                    PushView(
                        provider: status.target?.provider, destination: destination, keysRegistered: status.keysRegistered,
                        providers: status.providers))
            }
        }
        router.post("/api/push") { request, _ in
            await Self.answer {
                let endpoint = try await Self.body(WebPushRegistration.self, of: request).endpoint
                try await client.registerWebPush(endpoint: endpoint.trimmingCharacters(in: .whitespaces))
                return Self.done
            }
        }
        router.post("/api/push/remove") { _, _ in
            await Self.answer {
                try await client.removePushTarget()
                return Self.done
            }
        }
        router.get("/api/content-detection") { _, _ in
            await Self.answer { try Self.json(await client.verifyContentDetection()) }
        }
        router.post("/api/content-detection/check") { request, _ in
            await Self.answer {
                let id = try await Self.body(ContentCheckRequest.self, of: request).upload
                defer { uploads.discard(id) }
                guard let check = try await client.checkContent(ofFiles: [try uploads.file(id)]).first else {
                    throw WebRequestError(status: .internalServerError, message: "the file was not checked")
                }
                return try Self.json(ContentCheckView(sha256: check.sha256, verdict: check.verdict))
            }
        }
    }
}
