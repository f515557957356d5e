import Crypto
import Foundation
import Hummingbird
import Logging
import ParleyAPI

/// PIN-protected key backups: the primary device stores its encrypted secrets, a new machine restores them with the
/// PIN alone.
///
/// The PIN never reaches the server: the client sends it blinded through an oblivious PRF keyed per account
/// (``BackupOPRFKey``), stretches the unblinded output, and derives from it the blob's key and a verifier, of which
/// the server keeps only a SHA-256. Every restore evaluation is one guess: counted in the store before the answer
/// (``BackupStore/countBackupAttempt(accountId:maximumFailures:keyId:attemptTokenHash:)``), at most ``BackupSettings/attemptsPerWindow`` per
/// window and account, and the backup is deleted after ``BackupSettings/maximumFailures`` guesses without a
/// successful restore. Nothing about the PIN, the elements or the keys is logged.
struct BackupController: Sendable {
    let store: any AccountStore & BackupStore & UsernameStore
    let limits: ServerLimits
    let rateLimiter: RateLimiter
    let settings: BackupSettings
    let oprf: BackupOPRFKey
    let attempts: BackupAttemptWindow
    /// Where a backup deleted after too many guesses is recorded (the operator should know).
    let logger: Logger

    func addRoutes(to routes: ServerRoutes) {
        routes.device.post(RouterPath(BackupRoutes.evaluate), use: evaluateOwn)
        routes.device.put(RouterPath(BackupRoutes.backup), use: put)
        routes.device.get(RouterPath(BackupRoutes.backup), use: status)
        routes.device.delete(RouterPath(BackupRoutes.backup), use: delete)
        routes.open.post(RouterPath(BackupRoutes.evaluate(account: "{account}")), use: evaluateForRestore)
        routes.open.post(RouterPath(BackupRoutes.restore(account: "{account}")), use: restore)
    }

    /// `POST /v1/backup/evaluate`: the primary device's own PRF evaluation, for making a backup.
    @Sendable func evaluateOwn(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let caller = try primaryDevice(context)
        let body = try await JSONCoding.decode(BackupEvaluationRequest.self, from: request, limit: limits.smallBodyBytes)
        let evaluated = try evaluate(body.blindedElement, accountId: caller.account.id)
        return try JSONCoding.response(BackupEvaluationResponse(evaluatedElement: Data(evaluated).base64EncodedString()))
    }

    /// `PUT /v1/backup`: stores the primary device's backup, replacing any other, with no guesses counted.
    @Sendable func put(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let caller = try primaryDevice(context)
        let body = try await JSONCoding.decode(
            StoreBackupRequest.self, from: request, limit: settings.maximumBlobBytes * 4 / 3 + limits.smallBodyBytes)
        guard let blob = Data(base64Encoded: body.blob), !blob.isEmpty else {
            throw ServerError.badRequest("blob must be non-empty base64")
        }
        guard blob.count <= settings.maximumBlobBytes else { throw ServerError.payloadTooLarge(settings.maximumBlobBytes) }
        let verifier = try Self.element(body.verifier, field: "verifier")
        if let problem = body.kdf.validationProblem { throw ServerError.badRequest("kdf: \(problem)") }
        if body.kdf.effectivePINInput == .registeredName, caller.account.username == nil {
            throw ServerError.badRequest(
                "kdf: pinInput registeredName needs a registered name, and this account has none (use accountId)")
        }
        let parameters = String(decoding: try JSONEncoder().encode(body.kdf), as: UTF8.self)
        try await store.storeBackup(
            StoredBackup(
                accountId: caller.account.id, blob: Array(blob), kdfParameters: parameters,
                verifierHash: Array(SHA256.hash(data: verifier)), failures: 0, created: settings.clock(), keyId: oprf.keyId))
        // A backup restored by account id frees an account that goes by a username from its plain name.
        try await PlainNameRetirement(store: store).retireIfUnneeded(accountId: caller.account.id)
        return Response(status: .noContent)
    }

    /// `GET /v1/backup`: whether the account has a backup, and its guesses since the last restore.
    @Sendable func status(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let caller = context.device
        guard let backup = try await store.backup(accountId: caller.account.id) else {
            return try JSONCoding.response(BackupStatusResponse(exists: false))
        }
        return try JSONCoding.response(
            BackupStatusResponse(
                exists: true, created: backup.created, failures: backup.failures, kdf: try Self.parameters(of: backup)))
    }

    /// `DELETE /v1/backup`: removes the account's backup (primary device); 204 whether or not there was one.
    @Sendable func delete(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let caller = context.device
        guard caller.device.deviceId == 1 else { throw ServerError.forbidden("only the primary device can delete the backup") }
        _ = try await store.deleteBackup(accountId: caller.account.id, verifierHash: nil)
        return Response(status: .noContent)
    }

    /// `POST /v1/backup/{account}/evaluate` (no credentials): one PIN guess for the backup of `{account}`, an account id
    /// (for a backup whose PIN input is the id) or a registered name (for one made under the name). Counted before the
    /// answer; refused when the window is full; the backup is deleted instead once it has seen the maximum number of
    /// guesses. A name or id no account holds is answered step for step as an account without a backup — the body
    /// checked (400), a place taken in a window (429), then 404 — so the route does not tell registered names from
    /// others. A backup asked for by the other key than its PIN input is refused (409) before anything is counted.
    @Sendable func evaluateForRestore(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        try rateLimiter.take("unauthenticated", address: context.clientAddress, policy: limits.rateLimits.unauthenticatedPerAddress)
        let username = try context.pathParameter("account")
        let body = try await JSONCoding.decode(BackupEvaluationRequest.self, from: request, limit: limits.smallBodyBytes)
        guard let (account, pinInput) = try await backupOwner(username) else {
            // The element is checked as for an account (a key no account has), so a malformed one is a 400 here too.
            _ = try evaluate(body.blindedElement, accountId: "?" + username.lowercased())
            try attempts.take("evaluate", unknownUsername: username)
            throw Self.noBackup(username)
        }
        // Malformed elements are refused before anything is counted; the answer leaves only once the guess is.
        let evaluated = try evaluate(body.blindedElement, accountId: account.id)
        try attempts.take("evaluate", accountId: account.id)
        if let backup = try await store.backup(accountId: account.id) { try Self.check(backup, askedBy: pinInput) }
        var generator = SystemRandomNumberGenerator()
        let token = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        switch try await store.countBackupAttempt(
            accountId: account.id, maximumFailures: settings.maximumFailures, keyId: oprf.keyId,
            attemptTokenHash: Array(SHA256.hash(data: token)))
        {
        case .noBackup:
            throw Self.noBackup(username)
        case .wiped:
            logger.notice(
                "a PIN backup was deleted after \(settings.maximumFailures) wrong guesses", metadata: ["account": "\(account.id)"])
            throw Self.wiped
        case .keyMismatch:
            throw ServerError.unavailable(
                code: "backup_key_mismatch",
                message: "this server process holds another backup key file than the one the backup was made with; nothing was counted")
        case .counted(let backup):
            return try JSONCoding.response(
                BackupEvaluationResponse(
                    evaluatedElement: Data(evaluated).base64EncodedString(), kdf: try Self.parameters(of: backup),
                    attemptsLeft: max(0, settings.maximumFailures - backup.failures), attemptToken: Data(token).base64EncodedString()))
        }
    }

    /// `POST /v1/backup/{account}/restore` (no credentials): the blob for the right verifier (failures back to zero);
    /// 403 `wrong_pin` with the guesses left otherwise, deleting the backup when none are. `{account}` is as for
    /// ``evaluateForRestore(_:context:)``; a name or id no account holds is answered as an account without a backup
    /// (400 for a malformed body, 429 past the window, else 404).
    @Sendable func restore(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        try rateLimiter.take("unauthenticated", address: context.clientAddress, policy: limits.rateLimits.unauthenticatedPerAddress)
        let username = try context.pathParameter("account")
        let body = try await JSONCoding.decode(BackupRestoreRequest.self, from: request, limit: limits.smallBodyBytes)
        let verifier = try Self.element(body.verifier, field: "verifier")
        let token = try Self.element(body.attemptToken, field: "attemptToken")
        guard let (account, _) = try await backupOwner(username) else {
            try attempts.take("restore", unknownUsername: username)
            throw Self.noBackup(username)
        }
        try attempts.take("restore", accountId: account.id)
        // Each comparison consumes the attempt its counted evaluation opened: verifiers cannot be tried for free.
        guard let backup = try await store.takeBackupAttempt(accountId: account.id, attemptTokenHash: Array(SHA256.hash(data: token)))
        else {
            guard try await store.backup(accountId: account.id) != nil else { throw Self.noBackup(username) }
            throw ServerError.conflict(
                code: "no_attempt", message: "evaluate the PIN first: every restore attempt follows its own counted guess")
        }
        // swift-crypto compares digests in constant time.
        guard SHA256.hash(data: verifier) == backup.verifierHash else {
            let left = max(0, settings.maximumFailures - backup.failures)
            if left == 0 { _ = try await store.deleteBackup(accountId: account.id, verifierHash: backup.verifierHash) }
            throw ServerError.wrongPIN(attemptsLeft: left)
        }
        try await store.resetBackupFailures(accountId: account.id, verifierHash: backup.verifierHash)
        return try JSONCoding.response(BackupRestoreResponse(blob: Data(backup.blob).base64EncodedString()))
    }

    // MARK: Private

    private func primaryDevice(_ context: DeviceRequestContext) throws -> AuthenticatedDevice {
        let caller = context.device
        guard caller.device.deviceId == 1 else { throw ServerError.forbidden("only the primary device can make the backup") }
        try rateLimiter.take("backup", accountId: caller.account.id, policy: limits.rateLimits.backup)
        return caller
    }

    /// The account `key` names — an account id, or a registered name — with the PIN input a backup found by that key
    /// must have. A name no registered name can be (registration takes 3–32 ASCII letters, digits, `.`, `_`, `-`) is
    /// none, before any store folds its case its own way (PostgreSQL's `lower` would match a Kelvin sign to `k`,
    /// SQLite's `NOCASE` would not).
    private func backupOwner(_ key: String) async throws -> (StoredAccount, BackupKDFParameters.PINInput)? {
        if let id = UUID(uuidString: key) {
            return try await store.account(id: id.uuidString.lowercased()).map { ($0, .accountId) }
        }
        guard BackupAttemptWindow.couldBeUsername(key) else { return nil }
        return try await store.account(username: key).map { ($0, .registeredName) }
    }

    /// Refuses (409, nothing counted) a restore that asks for `backup` by the other key than the one its PIN was hashed
    /// with: the client would blind the wrong input and spend a guess on it.
    private static func check(_ backup: StoredBackup, askedBy pinInput: BackupKDFParameters.PINInput) throws {
        let made = PlainNameRetirement.pinInput(of: backup)
        guard made != pinInput else { return }
        switch made {
        case .registeredName:
            throw ServerError.conflict(
                code: "backup_keyed_by_name", message: "this backup was made under the account's registered name: restore it by that name")
        case .accountId:
            throw ServerError.conflict(
                code: "backup_keyed_by_account",
                message: "this backup was made under the account id: restore it by the username (its hash finds the account)")
        }
    }

    private func evaluate(_ base64: String, accountId: String) throws -> [UInt8] {
        let blinded = try Self.element(base64, field: "blindedElement")
        guard let evaluated = oprf.evaluate(blinded, accountId: accountId) else {
            throw ServerError.badRequest("blindedElement is not a ristretto255 element")
        }
        return evaluated
    }

    /// 32 bytes in base64, else a 400 naming the field.
    private static func element(_ base64: String, field: String) throws -> [UInt8] {
        guard base64.utf8.count <= 64, let bytes = Data(base64Encoded: base64), bytes.count == 32 else {
            throw ServerError.badRequest("\(field) must be base64 of 32 bytes")
        }
        return Array(bytes)
    }

    private static func parameters(of backup: StoredBackup) throws -> BackupKDFParameters {
        do {
            return try JSONDecoder().decode(BackupKDFParameters.self, from: Data(backup.kdfParameters.utf8))
        } catch {
            throw ServerError.internalFailure("stored backup parameters do not decode")
        }
    }

    private static func noBackup(_ username: String) -> ServerError { .notFound("no backup for \(username)") }

    private static let wiped = ServerError.gone(
        code: "backup_wiped", message: "the backup was deleted after too many wrong PINs")
}
