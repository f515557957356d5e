import Foundation
import NIOHTTP1
import ParleyAPI

/// The PIN backup routes (``ParleyAPI/BackupRoutes``) and the device reset a restore ends with. ``KeyBackup`` runs
/// the flows and turns the server's refusals into ``ParleyError/Backup``s.
extension ParleyServerClient {
    /// The account's OPRF key applied to `blindedElement` (primary device, for making a backup).
    public func evaluateBackupPIN(_ blindedElement: [UInt8], as device: DeviceCredentials) async throws -> BackupEvaluationResponse {
        try await call(
            .POST, BackupRoutes.evaluate, body: BackupEvaluationRequest(blindedElement: Data(blindedElement).base64EncodedString()),
            as: device, expecting: [200])
    }

    /// Stores the account's backup, replacing any other (primary device).
    public func storeBackup(_ request: StoreBackupRequest, as device: DeviceCredentials) async throws {
        _ = try await send(.PUT, BackupRoutes.backup, body: try JSONEncoder().encode(request), as: device, expecting: [204])
    }

    /// Whether the account has a backup, and its guesses since the last restore.
    public func backupStatus(as device: DeviceCredentials) async throws -> BackupStatusResponse {
        try await call(.GET, BackupRoutes.backup, as: device, expecting: [200])
    }

    /// Deletes the account's backup, if any (primary device).
    public func deleteBackup(as device: DeviceCredentials) async throws {
        _ = try await send(.DELETE, BackupRoutes.backup, body: nil, as: device, expecting: [204])
    }

    /// One PIN guess against the backup of `account` — an account id, or a registered name — (no credentials): the
    /// evaluation, the stretch parameters and the guesses left.
    public func evaluateBackupPIN(_ blindedElement: [UInt8], account: String) async throws -> BackupEvaluationResponse {
        try await call(
            .POST, BackupRoutes.evaluate(account: Self.pathComponent(account)),
            body: BackupEvaluationRequest(blindedElement: Data(blindedElement).base64EncodedString()), as: nil, expecting: [200])
    }

    /// The encrypted backup of `account` (as for ``evaluateBackupPIN(_:account:)``), answered when `verifier` is the one
    /// stored (no credentials); `attemptToken` is the one the guess's evaluation returned.
    public func restoreBackup(verifier: [UInt8], attemptToken: String, account: String) async throws -> BackupRestoreResponse {
        try await call(
            .POST, BackupRoutes.restore(account: Self.pathComponent(account)),
            body: BackupRestoreRequest(verifier: Data(verifier).base64EncodedString(), attemptToken: attemptToken),
            as: nil, expecting: [200])
    }

    /// Makes the device a new installation on the server: registration id `registrationId`, credential `password`,
    /// no prekeys stored.
    public func resetRegistration(_ registrationId: UInt32, password: String, as device: DeviceCredentials) async throws {
        _ = try await send(
            .PUT, APIRoutes.deviceRegistration,
            body: try JSONEncoder().encode(DeviceRegistrationRequest(registrationId: registrationId, password: password)),
            as: device,
            expecting: [204])
    }
}
