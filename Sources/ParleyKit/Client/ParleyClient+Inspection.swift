import Foundation
import ParleyAPI

/// What tools that show the inside (`parley-demo`) and tests reach below the verbs, with
/// `@_spi(Inspection) import ParleyKit`. Not API: front doors use the verbs.
extension ParleyClient {
    /// Processes one envelope fetched by hand (``api``), without acknowledging it: to show out-of-order delivery and a
    /// replay recognised.
    @_spi(Inspection) public func process(_ envelope: Envelope) async throws -> ReceiveOutcome {
        try await receiver.process(envelope)
    }

    /// Forgets this device's sessions with `accountId`, as a device restored from an old backup would have: to show a
    /// broken session recovered by a retry receipt.
    @_spi(Inspection) public func forgetSessions(with accountId: String) throws {
        try database.write { db in
            try store.deleteSessions(for: accountId, deviceIds: try store.sessionDevices(for: accountId, in: db), in: db)
        }
    }
}
