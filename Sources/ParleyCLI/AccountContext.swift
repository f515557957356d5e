import Foundation
import ParleyKit

/// Opens the selected account's client (`ParleyClient.open`: its encrypted database, keyed by `client.key` or by the
/// passphrase in `PARLEY_DB_PASSPHRASE`) and maps what goes wrong to exit codes. The commands only present.
enum AccountContext {
    /// Opens the account; `server` is required until the account is registered.
    static func open(_ options: GlobalOptions, server: String? = nil) throws -> ParleyClient {
        do {
            return try ParleyClient.open(
                accountDirectory: options.accountDirectory, server: server,
                passphrase: ProcessInfo.processInfo.environment["PARLEY_DB_PASSPHRASE"],
                contentDetection: try contentDetectionConfiguration())
        } catch ParleyError.invalidArgument where server == nil {
            throw ParleyError.invalidArgument("no server yet for account '\(options.account)': pass --server URL")
        } catch ParleyError.notRegistered where server == nil {
            throw AccountMissing(account: options.account, home: options.home)
        }
    }

    /// Runs `body` with the account open, shutting the client down afterwards and mapping errors to exit codes.
    static func with<T>(_ options: GlobalOptions, server: String? = nil, _ body: (ParleyClient) async throws -> T) async throws -> T {
        try await opening([options.account], of: options, server: server, onlyRegistered: false) { try await body($0[0].client) }
    }

    /// Runs `body` with the selected account open — or, with `every`, every registered account under the home
    /// directory (each with its local name) — shutting them down afterwards and mapping errors to exit codes.
    static func with<T>(
        _ options: GlobalOptions, every: Bool,
        _ body: ([(name: String, client: ParleyClient)]) async throws -> T
    ) async throws -> T {
        guard every else { return try await opening([options.account], of: options, server: nil, onlyRegistered: false, body) }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(
                atPath: URL(fileURLWithPath: options.home).appendingPathComponent("accounts").path
            ).sorted()
        } catch {
            throw report(error)
        }
        return try await opening(names, of: options, server: nil, onlyRegistered: true, body)
    }

    /// Opens the accounts `names` (leaving out unregistered ones when `onlyRegistered`, and then refusing to run with
    /// none), runs `body`, and shuts every opened client down whatever happens; errors are reported and mapped.
    private static func opening<T>(
        _ names: [String], of options: GlobalOptions, server: String?, onlyRegistered: Bool,
        _ body: ([(name: String, client: ParleyClient)]) async throws -> T
    ) async throws -> T {
        var opened: [(name: String, client: ParleyClient)] = []
        do {
            for name in names {
                var account = options
                account.account = name
                let client = try open(account, server: server)
                if onlyRegistered, (try? client.credentials()) == nil {
                    await client.shutdown()
                    continue
                }
                opened.append((name, client))
                // Disappearing messages whose time came while no process ran go before anything is shown.
                try client.sweepExpiredMessages()
            }
            if onlyRegistered, opened.isEmpty { throw ParleyError.notRegistered }
            let result = try await body(opened)
            for (_, client) in opened { await client.shutdown() }
            return result
        } catch {
            for (_, client) in opened { await client.shutdown() }
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

    /// Prints the error for people and picks the exit code.
    private static func report(_ error: Error) -> Error {
        FileHandle.standardError.write(Data("parley: \(error)\n".utf8))
        switch error {
        case ParleyError.notRegistered, is AccountMissing: return ParleyExit.notRegistered
        case ParleyError.untrustedIdentity: return ParleyExit.untrusted
        case ParleyError.duplicateBlocked: return ParleyExit.blocked
        case ParleyError.wrongDatabaseKey, ParleyError.databaseCorrupted, ParleyError.keyFile: return ParleyExit.database
        case ParleyError.backup: return ParleyExit.backup
        case ParleyError.server(let failure) where failure.status == 404: return ParleyExit.notFound
        case ParleyError.server: return ParleyExit.server
        default: return ParleyExit.failure
        }
    }
}
