import Foundation
import ParleyKit

/// An open account a door serves: its local name (`--account`) and its client.
public struct ServedAccount: Sendable {
    /// The local account name.
    public let name: String
    /// The account's open client.
    public let client: ParleyClient

    /// Serves `client` under the local name `name`.
    public init(name: String, client: ParleyClient) {
        self.name = name
        self.client = client
    }
}

/// One account a daemon serves: its client, and how signal-cli's tools name it.
struct DaemonAccount: Sendable {
    /// The local account name (`--account`).
    let name: String
    let client: any CompatClient
    /// signal-cli's methods over this account's client.
    let methods: SignalCLIMethods
    /// The account id.
    let accountId: String
    /// The username it registered.
    let username: String

    /// Opens the view of `client` (registered) under the local name `name`; `staging` holds its data-URI attachments.
    init(name: String, client: any CompatClient, staging: StagedAttachments) throws {
        guard let account = try client.account() else { throw ParleyError.notRegistered }
        self.name = name
        self.client = client
        accountId = try client.credentials().accountId
        username = account.username
        methods = SignalCLIMethods(
            client: client, account: SignalCLIAddress.number(forUsername: account.username) ?? accountId,
            staging: staging)
    }

    /// How signal-cli's results and notifications name it: `+digits` for a digits-only username, else the account id.
    var signalCLIName: String { methods.account }

    /// Whether signal-cli's `account` parameter `value` names this account: its number, account id, username or local name.
    func isNamed(_ value: String) -> Bool {
        [signalCLIName, accountId, username, "u:" + username, name].contains(value) || value.lowercased() == accountId
    }
}

/// The accounts a daemon serves and how a request picks one — signal-cli's `account` parameter. With one account
/// (`--account`, signal-cli's single-account mode) the parameter is ignored; with `--all-accounts` it chooses, and may be
/// left out only while there is one account.
struct DaemonAccounts: Sendable {
    let all: [DaemonAccount]
    /// Serving every account under the home directory (signal-cli's multi-account mode).
    let multiAccount: Bool
    /// The connected clients, which hear of what the accounts receive.
    let peers: DaemonPeers

    /// The account `name` names (its number, account id, username or local name), if it is served here.
    func named(_ name: String) -> DaemonAccount? {
        all.first { $0.isNamed(name) }
    }

    /// The account a request's `account` parameter names.
    /// - Throws: signal-cli's -32602 errors for an unknown account, or none given when there are several.
    func select(_ value: JSONValue?) throws -> DaemonAccount {
        guard multiAccount else { return all[0] }
        if let name = value?.string, !name.isEmpty {
            guard let account = named(name) else {
                throw JSONRPCError(code: -32602, message: "Specified account does not exist")
            }
            return account
        }
        guard all.count == 1 else { throw JSONRPCError(code: -32602, message: "Method requires valid account parameter") }
        return all[0]
    }
}

extension DaemonAccounts {
    /// Serves `served` — one account, or with `allAccounts` every registered one (signal-cli's multi-account mode) —
    /// keeping each listening on its server socket (incoming messages reach `peers` as ``DaemonEvent``s), and runs
    /// `body`. Attachments given as `data:` URIs are staged in a private (0700) folder removed at the end.
    static func serve(
        _ served: [ServedAccount], allAccounts: Bool,
        _ body: (DaemonAccounts, DaemonPeers) async throws -> Void
    ) async throws {
        let staging = FileManager.default.temporaryDirectory.appendingPathComponent("parley-daemon-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: staging) }
        let staged = StagedAttachments(folder: staging)
        let peers = DaemonPeers()
        let accounts = DaemonAccounts(
            all: try served.map { try DaemonAccount(name: $0.name, client: $0.client, staging: staged) },
            multiAccount: allAccounts, peers: peers)
        let receiving = zip(served, accounts.all).map { served, account in
            Task { try await served.client.listen { outcome in accounts.announce(outcome, of: account) } }
        }
        defer { for task in receiving { task.cancel() } }
        try await body(accounts, peers)
    }
}

extension DaemonAccounts {
    /// Tells every connected client what receiving did for `account` — a message stored, an act applied, someone
    /// typing — however it was received (the socket `listen` holds, or a client's own `receive` call).
    func announce(_ outcome: ReceiveOutcome, of account: DaemonAccount) {
        let event: DaemonEvent?
        switch outcome {
        case .stored(let id):
            // A message deleted for everyone the moment it came (the delete arrived first) is not shown: the delete
            // that follows says so.
            event = (try? account.client.message(id: id)).flatMap { message in
                guard !message.deleted,
                    let params = try? SignalCLIEnvelope.params(for: message, account: account.signalCLIName, client: account.client)
                else { return nil }
                return DaemonEvent(account: account.signalCLIName, message: message, signalCLI: params)
            }
        case .acted(let act):
            event = (try? SignalCLIEnvelope.params(for: act, account: account.signalCLIName, client: account.client))
                .map { DaemonEvent(account: account.signalCLIName, message: nil, signalCLI: $0) }
        case .typing(let accountId, let deviceId, let action, let groupId):
            event =
                (try? SignalCLIEnvelope.params(
                    typing: action, in: groupId, from: accountId, device: deviceId,
                    account: account.signalCLIName, client: account.client))
                .map { DaemonEvent(account: account.signalCLIName, message: nil, signalCLI: $0) }
        default:
            event = nil
        }
        if let event { peers.notifyAll(event) }
    }
}
