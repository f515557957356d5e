import AsyncHTTPClient
import Foundation
import GRDB
import ParleyKit

/// Opens the selected account's client: its encrypted database (key from `client.key`, or from the passphrase in
/// `PARLEY_DB_PASSPHRASE`) and an HTTP client for its server.
struct AccountContext {
    let client: ParleyClient
    let http: HTTPClient

    /// Opens the account; `server` is required until the account is registered.
    static func open(_ options: GlobalOptions, server: String? = nil) throws -> AccountContext {
        let directory = options.accountDirectory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let key: DatabaseKey
        if let passphrase = ProcessInfo.processInfo.environment["PARLEY_DB_PASSPHRASE"] {
            key = try DatabaseKey.fromPassphrase(passphrase, saltFile: directory.appendingPathComponent("client.salt"))
        } else {
            key = try DatabaseKey.fromKeyFile(at: directory.appendingPathComponent("client.key"))
        }
        let database = try ParleyDatabase(path: directory.appendingPathComponent("client.sqlite").path, key: key)
        let stored = try database.read { db in try String.fetchOne(db, sql: "SELECT server_url FROM local_account WHERE id = 1") }
        guard let url = server ?? stored else {
            throw ParleyError.invalidArgument("no server yet for account '\(options.account)': pass --server URL")
        }
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let client = ParleyClient(database: database, api: ParleyServerClient(baseURL: url, http: http),
                                  attachmentDirectory: directory.appendingPathComponent("attachments"),
                                  contentDetection: try contentDetectionConfiguration())
        return AccountContext(client: client, http: http)
    }

    /// Runs `body` with the account open, shutting the HTTP client down afterwards and mapping errors to exit codes.
    static func with<T>(_ options: GlobalOptions, server: String? = nil, _ body: (ParleyClient) async throws -> T) async throws -> T {
        let context: AccountContext
        do {
            context = try open(options, server: server)
        } catch {
            throw report(error)
        }
        do {
            // Disappearing messages whose time came while no process ran go before anything is shown.
            try context.client.sweepExpiredMessages()
            let result = try await body(context.client)
            await context.client.contentDetection.waitForBackgroundWork()  // hashes stored after sends
            try? await context.http.shutdown()
            return result
        } catch {
            await context.client.contentDetection.waitForBackgroundWork()
            try? await context.http.shutdown()
            throw report(error)
        }
    }

    /// Duplicate content detection from the environment: `PARLEY_DCD` = `prefix` (default), `full` or `off`;
    /// `PARLEY_DCD_STORE=off` keeps sent attachments' hashes out of the `seen` bank; `PARLEY_OPERATOR_TOKEN` for
    /// deleting hashes.
    static func contentDetectionConfiguration() throws -> ContentDetectionConfiguration {
        let environment = ProcessInfo.processInfo.environment
        var configuration = ContentDetectionConfiguration()
        switch environment["PARLEY_DCD"] ?? "prefix" {
        case "off": configuration.enabled = false
        case let mode:
            guard let lookup = ContentDetectionConfiguration.LookupMode(rawValue: mode) else {
                throw ParleyError.invalidArgument("PARLEY_DCD is prefix, full or off, not \(mode)")
            }
            configuration.mode = lookup
        }
        configuration.storeAfterSend = environment["PARLEY_DCD_STORE"] != "off"
        configuration.operatorToken = environment["PARLEY_OPERATOR_TOKEN"]
        return configuration
    }

    /// Resolves a recipient given as an account id or a username.
    static func resolve(_ recipient: String, with client: ParleyClient) async throws -> String {
        if UUID(uuidString: recipient) != nil { return recipient.lowercased() }
        let found = try await client.api.lookup(username: recipient, as: try client.credentials())
        try client.remember(username: found.username, for: found.accountId)
        return found.accountId
    }

    /// Prints the error for people and picks the exit code.
    private static func report(_ error: Error) -> Error {
        FileHandle.standardError.write(Data("parley: \(error)\n".utf8))
        switch error {
        case ParleyError.notRegistered: return ParleyExit.notRegistered
        case ParleyError.untrustedIdentity: return ParleyExit.untrusted
        case ParleyError.duplicateBlocked: return ParleyExit.blocked
        case ParleyError.wrongDatabaseKey, ParleyError.databaseCorrupted, ParleyError.keyFile: return ParleyExit.database
        case is BackupError: return ParleyExit.backup
        case is ServerAPIError: return ParleyExit.server
        default: return ParleyExit.failure
        }
    }
}
