import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import ParleyAPI
import Synchronization

extension ParleyClient {
    /// Opens (creating if needed) the account kept in `accountDirectory`: its encrypted database `client.sqlite`, keyed
    /// by `client.key` (made on first use, 0600) or, when `passphrase` is given, by Argon2id over it with the salt in
    /// `client.salt`; attachments staged in `attachments/`. The server is `server`, else the one the account registered
    /// with. The client owns its HTTP connections: call ``shutdown()`` when done.
    ///
    /// - Throws: ``ParleyError/invalidArgument(_:)`` when no server is known yet (pass one until the account is
    ///   registered or linked); ``ParleyError/wrongDatabaseKey``, ``ParleyError/keyFile(_:)`` and the database's errors.
    public static func open(
        accountDirectory directory: URL, server: String? = nil, passphrase: String? = nil,
        contentDetection: ContentDetectionConfiguration = ContentDetectionConfiguration(), logger: Logger = Logger(label: "parley")
    ) throws -> ParleyClient {
        // Only registering or linking (which name a server) makes an account: a mistyped name must not leave one behind.
        guard server != nil || FileManager.default.fileExists(atPath: directory.appendingPathComponent("client.sqlite").path) else {
            throw ParleyError.notRegistered
        }
        let server = try server.map(Self.checkedServerURL)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let key =
            try passphrase.map { try DatabaseKey.fromPassphrase($0, saltFile: directory.appendingPathComponent("client.salt")) }
            ?? DatabaseKey.fromKeyFile(at: directory.appendingPathComponent("client.key"))
        let database = try ParleyDatabase(path: directory.appendingPathComponent("client.sqlite").path, key: key)
        guard let url = try server ?? database.read(LocalAccount.serverURL) else {
            throw ParleyError.invalidArgument("no server is known yet for \(directory.lastPathComponent): pass the server's URL")
        }
        // A server that is down answers a connection attempt at once; AsyncHTTPClient retries until its connect
        // timeout: 5 s, not the default 10, before a command reports the server unreachable (sends stay queued).
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(5)
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        // Sealed sends get connections of their own, never one that just carried this device's credentials.
        let unidentifiedHTTP = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let client = ParleyClient(
            database: database, api: ParleyServerClient(baseURL: url, http: http, unidentifiedHTTP: unidentifiedHTTP),
            attachmentDirectory: directory.appendingPathComponent("attachments"),
            contentDetection: contentDetection, logger: logger)
        client.ownedHTTPClients.withLock { $0 = [http, unidentifiedHTTP] }
        // Files a killed or interrupted process was making (plaintext among them) go before anything else happens.
        client.staging.sweep()
        return client
    }

    /// `server` with its scheme in lower case (`HTTPS://` would not become `wss://` for the socket), or a refusal of a
    /// URL that is not an absolute `http://` or `https://` URL with a host, saying so (a name without a scheme failed only
    /// later, with the HTTP library's "invalidURL").
    /// - Throws: ``ParleyError/invalidArgument(_:)``.
    static func checkedServerURL(_ server: String) throws -> String {
        guard let url = URL(string: server), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()),
            let host = url.host, !host.isEmpty
        else {
            throw ParleyError.invalidArgument("the server's URL must start with http:// or https:// and name a host (got “\(server)”)")
        }
        return scheme.lowercased() + server.dropFirst(scheme.count)
    }

    /// Makes this process the account's one receiver until ``shutdown()`` or its end: what a front door that drains the
    /// mailbox (`parley receive`, `listen`, the daemon, `rest-api`, `web`) claims first, so a second one on the same
    /// account is refused instead of splitting the messages with it. A client that holds the claim already keeps it.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` naming the process that receives for the account.
    public func claimReceiving() throws { try receivingLock.claim() }

    /// Finishes background work (hashes stored after sends), closes the HTTP connections a client made by
    /// ``open(accountDirectory:server:passphrase:contentDetection:logger:)`` owns, and ends every ``events()``
    /// subscription.
    public func shutdown() async {
        await contentDetection.waitForBackgroundWork()
        staging.close()
        receivingLock.release()
        let pools = ownedHTTPClients.withLock { pools -> [HTTPClient] in
            defer { pools = [] }
            return pools
        }
        for pool in pools { try? await pool.shutdown() }
        eventHub.finishAll()
    }

    /// The account id a recipient names: an account id as is, a contact's username from this device's database
    /// (no network: sending to a contact, reading its history or its safety number work offline), or another username —
    /// `nickname.NN` found by its hash, a username link, or an account name as registered — looked up on the server
    /// (and remembered as the conversation's name).
    /// - Throws: ``ParleyError/Server`` when no account has that username, or when it is not a contact and the server
    ///   cannot be reached (the message says so).
    public func resolve(_ recipient: String) async throws -> String {
        if UUID(uuidString: recipient) != nil { return recipient.lowercased() }
        if let known = try knownAccountId(username: recipient) { return known }
        let found: AccountLookupResponse
        do {
            guard let account = try await api.findAccount(named: recipient, as: try credentials()) else {
                throw ParleyError.server(.rejected(status: 404, body: APIErrorBody(code: "not_found", message: "no account \(recipient)")))
            }
            found = account
        } catch ParleyError.server(.transport(let detail)) {
            throw ParleyError.server(
                .transport("\(detail); \(recipient) is not a contact on this device yet, and only the server can look the name up"))
        }
        try remember(username: found.username ?? recipient, for: found.accountId)
        return found.accountId
    }

    /// The account id this device knows for `username` (someone it has exchanged messages with or looked up), without
    /// asking the server; usernames compare without regard to case, as the server's do.
    public func knownAccountId(username: String) throws -> String? {
        try database.read { db in
            try RecipientsTable.accountId(named: username, placeholderPrefix: PendingRecipients.prefix, db)
        }
    }

    /// The message with local id `id`, if there is one.
    public func message(id: Int64) throws -> StoredMessage? {
        try database.read { db in try MessageLookup.message(id, db) }
    }

    /// The earlier versions of message `id`'s text, oldest first (empty when it was never edited).
    public func editHistory(ofMessage id: Int64) throws -> [String] {
        try database.read { db in try MessageLookup.editHistory(id, db) }
    }

    /// The message `authorAccountId` sent at `timestamp` (the pair names a message on every device), if this device has it.
    public func message(author authorAccountId: String, timestamp: UInt64) throws -> StoredMessage? {
        try database.read { db in
            try MessagesTable.id(author: authorAccountId, timestamp: timestamp, db).flatMap { try MessageLookup.message($0, db) }
        }
    }

    /// The usernames this device knows for `accountIds` (those it knows).
    public func usernames(of accountIds: [String]) throws -> [String: String] {
        try database.read { db in try RecipientsTable.usernames(of: accountIds, db) }
    }

    /// Why sending or receiving message `id` failed, as a type: `nil` when it did not (or there is no such message).
    public func failure(ofMessage id: Int64) throws -> MessageFailure? {
        try message(id: id).flatMap { message in
            guard message.status == .failed || message.status == .undecryptable else { return nil }
            return MessageFailure(storedReason: message.failureReason ?? "", status: message.status)
        }
    }

    /// The account's PIN backups on its server.
    public var backups: KeyBackup { KeyBackup(database: database, api: api, store: store) }

    /// Makes `newDevice` (a client over an empty database, on the same machine) a new device of this account, with
    /// `name`; this client must be the primary device.
    public func linkNewDevice(_ newDevice: ParleyClient, name: String? = nil) async throws -> DeviceCredentials {
        try await accounts.linkNewDevice(database: newDevice.database, name: name)
    }
}
