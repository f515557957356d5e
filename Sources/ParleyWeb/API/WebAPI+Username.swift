import Foundation
import Hummingbird
import ParleyKit
import ParleyLocalService

/// The account's username (``ParleyClient/setUsername(nickname:discriminator:)``): what it is, taking or giving it up,
/// and its username link as text and as a QR code to show another person's camera. The server sees only the hash and
/// the encrypted link.
extension WebAPI {
    struct UsernameState: Encodable {
        /// `nickname.NN`, or `nil`.
        let username: String?
        /// The username link, or `nil` without a username.
        let link: String?
    }

    struct UsernameChoice: Decodable {
        let nickname: String
        /// The number after the dot; a free random one when `nil` or empty.
        let discriminator: String?
    }

    func addUsernameRoutes(to router: Router<LocalRequestContext>) {
        router.get("/api/username") { _, _ in
            await Self.answer {
                // What this device keeps: reading the page makes nothing on the server.
                try Self.json(UsernameState(username: try client.username(), link: try client.storedUsernameLink()?.description))
            }
        }
        router.post("/api/username") { request, _ in
            await Self.answer {
                let choice = try await Self.body(UsernameChoice.self, of: request)
                let discriminator = choice.discriminator.flatMap { $0.isEmpty ? nil : $0 }
                let username = try await client.setUsername(
                    nickname: choice.nickname.trimmingCharacters(in: .whitespaces), discriminator: discriminator)
                return try Self.json(UsernameState(username: username.value, link: try await client.usernameLink().description))
            }
        }
        router.post("/api/username/link/reset") { _, _ in
            await Self.answer {
                let link = try await client.usernameLink(reset: true)
                return try Self.json(UsernameState(username: try client.username(), link: link.description))
            }
        }
        router.post("/api/username/delete") { _, _ in
            await Self.answer {
                try await client.deleteUsername()
                return Self.done
            }
        }
        router.get("/api/username/link/qr") { _, _ in
            await Self.answer {
                guard let link = try client.storedUsernameLink() else {
                    throw WebRequestError(status: .notFound, message: "no username link: take a username or make a new link")
                }
                return Self.svg(try QRCode(bytes: Array(link.description.utf8), errorCorrection: .medium))
            }
        }
    }
}
