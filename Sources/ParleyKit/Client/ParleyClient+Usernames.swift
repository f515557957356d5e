import Foundation
import ParleyAPI
import ParleyProtocol

/// Usernames the server never reads: this account's (`nickname.NN`, kept here; the server has its hash and a proof),
/// its username link, and finding others by username or link.
extension ParleyClient {
    /// Makes `nickname` this account's username: with `discriminator`, exactly `nickname.discriminator`; without, the
    /// first free of twenty candidates with random numbers. The server reserves the hash, checks the proof and stores a
    /// fresh username link in the same step. Returns the username.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` for a nickname or discriminator Signal's rules refuse (saying which
    ///   rule), or when the username (or every candidate) is taken.
    @discardableResult
    public func setUsername(nickname: String, discriminator: String? = nil) async throws -> Username {
        let candidates = try Self.signalRules {
            try discriminator.map { [try Username(nickname: nickname, discriminator: $0, withValidLengthWithin: 3...32)] }
                ?? Username.candidates(from: nickname)
        }
        let device = try credentials()
        guard let reserved = try await api.reserveUsernameHash(candidates.map(\.hash), as: device),
            let username = candidates.first(where: { $0.hash == reserved })
        else {
            let wanted = discriminator.map { "\(nickname).\($0) is" } ?? "every username for \(nickname) tried is"
            throw ParleyError.invalidArgument("\(wanted) taken")
        }
        let (entropy, encrypted) = try username.createLink()
        let confirmed = try await api.confirmUsernameHash(
            username.hash, proof: username.generateProof(), encryptedUsername: encrypted, as: device)
        try database.write { db in
            try SettingsTable.set(SettingsTable.username, to: username.value, db)
            // The name this account goes by from now on (the server deletes a plain name it had once nothing needs it).
            try LocalAccountTable.setName(username.value, db)
            if let handle = confirmed.usernameLinkHandle.flatMap(UUID.init(uuidString:)) {
                try SettingsTable.set(SettingsTable.usernameLink, to: UsernameLinkAddress(entropy: entropy, handle: handle).description, db)
            } else {
                try SettingsTable.remove(SettingsTable.usernameLink, db)
            }
        }
        return username
    }

    /// Checks `nickname` by Signal's rules without asking the server (before registering with one, say).
    /// - Throws: ``ParleyError/invalidArgument(_:)`` naming the rule broken.
    public static func checkNickname(_ nickname: String) throws {
        try signalRules { _ = try Username(nickname: nickname, discriminator: "01", withValidLengthWithin: 3...32) }
    }

    /// Runs `body`, a username built by Signal's rules, turning the rule it breaks into ``ParleyError/invalidArgument(_:)``.
    static func signalRules<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SignalError {
            throw ParleyError.invalidArgument("\(error)")
        }
    }

    /// This account's username link as this device keeps it, without asking the server; `nil` when it has none.
    public func storedUsernameLink() throws -> UsernameLinkAddress? {
        try database.read { db in try SettingsTable.value(SettingsTable.usernameLink, db) }.flatMap(UsernameLinkAddress.init)
    }

    /// This account's username as this device set it, or `nil`.
    public func username() throws -> String? { try database.read { db in try SettingsTable.value(SettingsTable.username, db) } }

    /// This account's username link; a new one (a new handle and new entropy: the old link stops working) when there is
    /// none or with `reset`.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` when the account has no username.
    public func usernameLink(reset: Bool = false) async throws -> UsernameLinkAddress {
        if !reset, let link = try storedUsernameLink() { return link }
        guard let name = try username() else {
            throw ParleyError.invalidArgument("this account has no username: set one first (parley username set NICKNAME)")
        }
        let (entropy, encrypted) = try Username(name).createLink()
        let handleText = try await api.setUsernameLink(encrypted, keepHandle: false, as: try credentials())
        guard let handle = UUID(uuidString: handleText) else {
            throw ParleyError.server(.malformedResponse("the username link handle \(handleText) is no UUID"))
        }
        let link = UsernameLinkAddress(entropy: entropy, handle: handle)
        try database.write { db in try SettingsTable.set(SettingsTable.usernameLink, to: link.description, db) }
        return link
    }

    /// Removes this account's username and link from the server and this device.
    public func deleteUsername() async throws {
        try await api.deleteUsername(as: try credentials())
        try database.write { db in
            try SettingsTable.remove(SettingsTable.username, db)
            try SettingsTable.remove(SettingsTable.usernameLink, db)
        }
    }

    /// The username a username link holds.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` when the server has no such link; a ``SignalError`` when what it
    ///   holds does not decrypt under the link's entropy.
    public func username(of link: UsernameLinkAddress) async throws -> Username { try await api.username(of: link) }

    /// The account `name` names on the server — a username link's, a username's (`nickname.NN`, by its hash) or an
    /// account name as registered — remembered as its conversation's name; `nil` when there is none.
    public func findAccount(named name: String) async throws -> AccountLookupResponse? {
        guard let found = try await api.findAccount(named: name, as: try credentials()) else { return nil }
        try remember(username: found.username ?? name, for: found.accountId)
        return found
    }
}

/// Moving an account registered with a plain name to a username the server never reads.
extension ParleyClient {
    /// When the server retired plain account names (`parley-server --plain-account-names retired`) and this account
    /// still goes by one: takes a username made from the name (``nickname(fromPlainName:)`` and a free number), after
    /// which the server deletes the name — or, when the PIN backup was made under the name, keeps it until the backup
    /// is made again. Contacts keep the account under its id and learn the username from its next message.
    /// ``maintainKeys()`` runs it once per client.
    /// - Throws: what reaching the server or taking the username throws.
    @discardableResult
    public func movePlainNameToUsernameIfAsked() async throws -> PlainNameMove {
        let device = try credentials()
        let (local, goesByUsername) = try database.read { db in
            (
                try LocalAccountTable.username(db),
                try SettingsTable.value(SettingsTable.username, db) != nil
                    || SettingsTable.value(SettingsTable.registeredWithoutName, db) != nil
            )
        }
        guard !goesByUsername, let local else { return .notAsked }
        let identity = try await api.whoami(as: device)
        guard identity.plainAccountNames == "retired" else { return .notAsked }
        let plainName = identity.accountName ?? local
        let username = try await setUsername(nickname: Self.nickname(fromPlainName: plainName))
        let kept = try await api.whoami(as: device).accountName != nil
        return .moved(username: username.value, nameKeptForBackup: kept)
    }

    /// A nickname Signal's rules accept made from a plain account name (3–32 ASCII letters, digits, `.`, `_`, `-`):
    /// `.` and `-` become `_`, and a name that begins with a digit gets a leading `_`, cut back to 32 characters.
    public static func nickname(fromPlainName name: String) -> String {
        var nickname = String(name.map { $0 == "." || $0 == "-" ? "_" : $0 })
        if nickname.first?.isNumber == true { nickname = "_" + nickname }
        return String(nickname.prefix(32))
    }
}
