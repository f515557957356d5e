import Foundation
import Hummingbird
import ParleyKit
import ParleyLocalService

/// The PIN-protected backup of this account's identity (``KeyBackup``): its status, storing and deleting it on the
/// primary device, and restoring an account from it on a new machine (the page's welcome screen). The PIN comes from
/// the page to this process over loopback and goes no further: the server sees only what ``KeyBackup`` sends.
extension WebAPI {
    struct BackupCreation: Decodable {
        let pin: String
        /// `argon2id` (the default) or `pbkdf2`.
        let kdf: String?
    }

    struct BackupRestoration: Decodable {
        let username: String
        let pin: String
    }

    func addBackupRoutes(to router: Router<LocalRequestContext>) {
        router.get("/api/backup") { _, _ in
            await Self.answer { try Self.json(try await client.backups.status()) }
        }
        router.post("/api/backup") { request, _ in
            await Self.answer {
                let creation = try await Self.body(BackupCreation.self, of: request)
                let kdf = creation.kdf ?? "argon2id"
                guard kdf == "argon2id" || kdf == "pbkdf2" else {
                    throw WebRequestError(status: .badRequest, message: "kdf is argon2id or pbkdf2")
                }
                try await client.backups.create(pin: creation.pin, kdf: kdf == "pbkdf2" ? .pbkdf2SHA256 : .argon2id)
                return Self.done
            }
        }
        router.post("/api/backup/delete") { _, _ in
            await Self.answer {
                try await client.backups.delete()
                return Self.done
            }
        }
        router.post("/api/restore") { request, _ in
            await Self.answer {
                let restoration = try await Self.body(BackupRestoration.self, of: request)
                guard (try? client.credentials()) == nil else {
                    throw WebRequestError(status: .conflict, message: "this account is registered already")
                }
                _ = try await client.backups.restore(
                    username: restoration.username.trimmingCharacters(in: .whitespaces), pin: restoration.pin)
                await receiver.start()
                return Self.done
            }
        }
    }
}
