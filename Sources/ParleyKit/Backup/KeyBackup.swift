import Foundation
import ParleyAPI
import ParleyProtocol

/// PIN-protected backup of the account's identity and credential, kept on the server: made by the primary device,
/// restored on a new machine from the username and the PIN alone.
///
/// ```swift
/// try await KeyBackup(database: phone.database, api: phone.api, store: phone.store).create(pin: "4711")
/// // on a new machine, with an empty database:
/// try await KeyBackup(database: fresh.database, api: fresh.api, store: fresh.store).restore(username: "dana", pin: "4711")
/// ```
///
/// The PIN goes through the server's oblivious PRF (``BlindedPIN``), is stretched (``BackupKDF``) and gives the
/// blob's AES-256-GCM key and a verifier; the server stores the blob (``BackupSecrets``, sealed), the stretch
/// parameters and a SHA-256 of the verifier. Every restore attempt is one guess the server counts and limits.
public struct KeyBackup: Sendable {
    let database: ParleyDatabase
    let api: ParleyServerClient
    let store: DatabaseProtocolStore
    let argon2: BackupKDF.Argon2Limits

    /// The shortest PIN accepted, in characters.
    public static let minimumPINLength = 4
    /// The `settings` key holding the previous credential while a restore is unfinished (it resumes from there).
    static let restorePendingSetting = "restore_pending"

    /// Backups of the account in `database` on the server `api` talks to; new backups stretch with Argon2id at
    /// `argon2` (lower only in tests).
    public init(
        database: ParleyDatabase, api: ParleyServerClient, store: DatabaseProtocolStore,
        argon2: BackupKDF.Argon2Limits = .interactive
    ) {
        self.database = database
        self.api = api
        self.store = store
        self.argon2 = argon2
    }

    /// Makes a backup under `pin`, replacing any the account had (primary device only).
    ///
    /// - Throws: ``ParleyError/Backup/pinTooShort``, ``ParleyError/Backup/notPrimaryDevice``, ``ParleyError/notRegistered``,
    ///   ``ParleyError/Server`` when the server refuses or cannot be reached.
    public func create(pin: String, kdf: BackupKDFParameters.Algorithm = .argon2id) async throws {
        let pin = Self.normalized(pin)
        try Self.check(pin)
        let (credentials, secrets, pinInput) = try database.read { db -> (DeviceCredentials, BackupSecrets, BackupKDFParameters.PINInput) in
            let credentials = try LocalAccount.credentials(db)
            guard let account = try LocalAccountTable.account(db), let identity = try LocalAccountTable.identityKeyPair(db)
            else { throw ParleyError.notRegistered }
            // An account that goes by a username is found by its id (from the username's hash) on a new machine; only
            // one still known by its registered name hashes the PIN with the name.
            let goesByUsername =
                try SettingsTable.value(SettingsTable.username, db) != nil
                || SettingsTable.value(SettingsTable.registeredWithoutName, db) != nil
            return (
                credentials,
                BackupSecrets(
                    accountId: credentials.accountId, username: account.username, password: credentials.password,
                    identityKeyPair: identity, registrationId: account.registrationId),
                goesByUsername ? .accountId : .registeredName
            )
        }
        guard credentials.deviceId == 1 else { throw ParleyError.backup(.notPrimaryDevice) }
        let blinded = try BlindedPIN(pin: pin, keyedBy: pinInput == .accountId ? secrets.accountId : secrets.username)
        let evaluation = try await translatingRefusals { try await api.evaluateBackupPIN(blinded.blindedElement, as: credentials) }
        let output = try blinded.finalize(evaluatedElement: try Self.element(evaluation.evaluatedElement))
        let parameters = BackupKDF.newParameters(kdf, argon2: argon2).with(pinInput: pinInput)
        let keys = try BackupKDF.deriveKeys(from: output, parameters: parameters)
        let request = StoreBackupRequest(
            blob: Data(try secrets.sealed(with: keys.encryptionKey)).base64EncodedString(), kdf: parameters,
            verifier: Data(keys.verifier).base64EncodedString())
        try await translatingRefusals { try await api.storeBackup(request, as: credentials) }
    }

    /// Whether the account has a backup, when it was made and how many guesses it has seen since.
    public func status() async throws -> BackupStatusResponse {
        try await api.backupStatus(as: try database.read(LocalAccount.credentials))
    }

    /// Deletes the account's backup, if any (primary device only).
    public func delete() async throws {
        let credentials = try database.read(LocalAccount.credentials)
        guard credentials.deviceId == 1 else { throw ParleyError.backup(.notPrimaryDevice) }
        try await api.deleteBackup(as: credentials)
    }

    /// Restores the backup of `username` — a username (`nickname.NN`: its hash finds the account id, which the backup is
    /// kept under), or the name an account registered with — into this (empty) database with `pin`, making this
    /// machine the account's primary
    /// device: the identity key comes from the backup; the registration id and the device credential are new, so
    /// peers' sessions with the old installation fail with 410 and are rebuilt, and the old installation can no
    /// longer sign in; fresh prekeys replace the old ones on the server, and the backup is made again under the same
    /// PIN (it held the old credential).
    ///
    /// Each call is one guess of the server's limited number. A restore cut short after the guess succeeded (the
    /// process died, the network failed) resumes when called again with the same PIN, without another guess.
    ///
    /// - Throws: ``ParleyError/Backup/wrongPIN(attemptsLeft:)``, ``ParleyError/Backup/wiped``, ``ParleyError/Backup/rateLimited(retryAfter:)``,
    ///   ``ParleyError/Backup/noBackup``, ``ParleyError/Backup/pinTooShort``, ``ParleyError/Backup/alreadyRegistered``,
    ///   ``ParleyError/Backup/malformed(_:)``; ``ParleyError/Server`` for other refusals.
    @discardableResult
    public func restore(username: String, pin: String) async throws -> DeviceCredentials {
        let pin = Self.normalized(pin)
        try Self.check(pin)
        if let previousPassword = try database.read({ db in
            try SettingsTable.value(Self.restorePendingSetting, db)
        }) {
            return try await finishRestore(previousPassword: previousPassword, pin: pin)
        }
        guard try database.read(LocalAccount.fetch)?.credentials == nil else { throw ParleyError.backup(.alreadyRegistered) }
        // A username is never sent: its hash gives the account id, which the backup is found by and hashed with.
        let wanted = try? Username(username)
        let key: String
        if let wanted {
            guard let accountId = try await translatingRefusals({ try await api.account(usernameHash: wanted.hash) }) else {
                throw ParleyError.backup(.noBackup)
            }
            key = accountId
        } else {
            key = username
        }
        let blinded = try BlindedPIN(pin: pin, keyedBy: key)
        let evaluation = try await translatingRefusals { try await api.evaluateBackupPIN(blinded.blindedElement, account: key) }
        guard let parameters = evaluation.kdf, let token = evaluation.attemptToken else {
            throw ParleyError.backup(.malformed("the server sent no stretch parameters or attempt token"))
        }
        guard parameters.effectivePINInput == (wanted == nil ? .registeredName : .accountId) else {
            throw ParleyError.backup(.malformed("the server answered with a backup made under another key than it was asked for"))
        }
        try checkCost(parameters)
        let output = try blinded.finalize(evaluatedElement: try Self.element(evaluation.evaluatedElement))
        let keys = try BackupKDF.deriveKeys(from: output, parameters: parameters)
        let restored = try await translatingRefusals {
            try await api.restoreBackup(verifier: keys.verifier, attemptToken: token, account: key)
        }
        guard let blob = Data(base64Encoded: restored.blob) else { throw ParleyError.backup(.malformed("the blob is not base64")) }
        let secrets = try BackupSecrets.opened(Array(blob), with: keys.encryptionKey)
        guard wanted == nil ? secrets.username.lowercased() == username.lowercased() : secrets.accountId == key else {
            throw ParleyError.backup(.malformed("the backup belongs to another account"))
        }
        guard (try? IdentityKeyPair(bytes: secrets.identityKeyPair)) != nil else {
            throw ParleyError.backup(.malformed("the identity key pair does not parse"))
        }
        // The account goes into the database first, with its new credential and registration id and the old
        // credential kept until the server has switched: whatever fails from here on, calling again resumes.
        var registrationId = UInt32.random(in: 1...16380)
        while registrationId == secrets.registrationId { registrationId = UInt32.random(in: 1...16380) }
        var generator = SystemRandomNumberGenerator()
        let password = Data((0..<24).map { _ in UInt8.random(in: 0...255, using: &generator) }).base64EncodedString()
        // Restored by username: the account goes by it (its backup is made again under the account id), in the case it
        // was chosen in when the backup has it; the backup may hold an earlier username (or none) of the account.
        let goesBy = wanted.map { secrets.username.lowercased() == $0.value.lowercased() ? secrets.username : $0.value }
        try await database.awaitableWrite { [baseURL = api.baseURL, registrationId] db in
            try LocalAccountTable.replace(
                serverURL: baseURL, username: goesBy ?? secrets.username, accountId: secrets.accountId, deviceId: 1,
                password: password, identityKeyPair: secrets.identityKeyPair, registrationId: registrationId,
                profileKey: nil, db)
            if let goesBy { try SettingsTable.set(SettingsTable.username, to: goesBy, db) }
            try SettingsTable.set(Self.restorePendingSetting, to: secrets.password, db)
        }
        return try await finishRestore(previousPassword: secrets.password, pin: pin)
    }

    /// The server side of a restore: switch the device to the new registration id and credential (signing in with the
    /// old credential, or the new one when an earlier attempt got that far), upload fresh prekeys, back up again.
    private func finishRestore(previousPassword: String, pin: String) async throws -> DeviceCredentials {
        let (credentials, registrationId) = try database.read { db in
            (
                try LocalAccount.credentials(db),
                try LocalAccountTable.registrationId(db) ?? 0
            )
        }
        let previous = DeviceCredentials(accountId: credentials.accountId, deviceId: 1, password: previousPassword)
        do {
            try await api.resetRegistration(registrationId, password: credentials.password, as: previous)
        } catch ParleyError.server(let error) where error.status == 401 {
            try await api.resetRegistration(registrationId, password: credentials.password, as: credentials)
        }
        let accounts = AccountManager(database: database, api: api, store: store)
        // The backup holds no trust root: without the server's, every sealed message to the restored account would be
        // undecryptable, acknowledged and gone.
        // (A failure here leaves the restore to be run again: it resumes.)
        try await accounts.learnTrustRootIfMissing()
        try await accounts.upload(oneTime: true, signed: true, lastResort: true)
        try await create(pin: pin)
        try await database.awaitableWrite { db in try SettingsTable.remove(Self.restorePendingSetting, db) }
        return credentials
    }

    /// Refuses stretch parameters a server could use to make a restore spend minutes and gigabytes, or that are
    /// weaker than what this client makes (which would make the verifier it sends cheap to attack).
    private func checkCost(_ parameters: BackupKDFParameters) throws {
        switch parameters.algorithm {
        case .argon2id:
            guard let ops = parameters.opsLimit, let memory = parameters.memLimit,
                (argon2.opsLimit...max(argon2.opsLimit, 8)).contains(ops),
                (argon2.memLimit...max(argon2.memLimit, 256 << 20)).contains(memory)
            else { throw ParleyError.backup(.malformed("the server asked for an Argon2id stretch outside what this client accepts")) }
        case .pbkdf2SHA256:
            guard let iterations = parameters.iterations, (BackupKDF.pbkdf2Iterations...1_000_000).contains(iterations) else {
                throw ParleyError.backup(.malformed("the server asked for a PBKDF2 stretch outside 100,000…1,000,000 iterations"))
            }
        }
    }

    /// Runs `body`, turning the backup routes' refusals into ``ParleyError/Backup``s.
    private func translatingRefusals<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch ParleyError.server(let error) {
            guard case .rejected(let status, let answer) = error else { throw ParleyError.server(error) }
            if status == 403, answer?.code == "wrong_pin" { throw ParleyError.backup(.wrongPIN(attemptsLeft: answer?.attemptsLeft ?? 0)) }
            switch status {
            case 404: throw ParleyError.backup(.noBackup)
            case 410: throw ParleyError.backup(.wiped)
            case 429: throw ParleyError.backup(.rateLimited(retryAfter: answer?.retryAfter ?? 60))
            default: throw ParleyError.server(error)
            }
        }
    }

    /// The PIN in Unicode normalization form C, so the same PIN typed on another system gives the same bytes.
    private static func normalized(_ pin: String) -> String { pin.precomposedStringWithCanonicalMapping }

    private static func check(_ pin: String) throws {
        guard pin.count >= minimumPINLength else { throw ParleyError.backup(.pinTooShort) }
    }

    /// A 32-byte element from the server, base64.
    private static func element(_ base64: String) throws -> [UInt8] {
        guard let bytes = Data(base64Encoded: base64), bytes.count == 32 else {
            throw ParleyError.backup(.malformed("the server's evaluation is not 32 bytes of base64"))
        }
        return Array(bytes)
    }
}
