import ParleyKit

/// ParleyClient is the compatibility layer's client: every requirement is one of its own methods.
extension ParleyClient: CompatClient {
    /// Stores the identity backup on the server under `pin` (``KeyBackup/create(pin:kdf:)``, Argon2id).
    public func createBackup(pin: String) async throws { try await backups.create(pin: pin) }

    /// Deletes the identity backup from the server (``KeyBackup/delete()``).
    public func deleteBackup() async throws { try await backups.delete() }
}
