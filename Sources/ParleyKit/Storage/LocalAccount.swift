import Foundation
internal import GRDB
import ParleyProtocol

/// This database's account as stored in `local_account`.
public struct LocalAccount: Sendable, Equatable {
    /// The server's base URL.
    public let serverURL: String
    /// The registered username.
    public let username: String
    /// The device's credentials (account id and device id are set once the server accepted the registration).
    public let credentials: DeviceCredentials?
    /// This device's registration id.
    public let registrationId: UInt32

    /// The account stored in `db`, if any.
    static func fetch(_ db: Database) throws -> LocalAccount? { try LocalAccountTable.account(db) }

    /// The server this database's account talks to, if it has one yet.
    static func serverURL(_ db: Database) throws -> String? { try LocalAccountTable.serverURL(db) }

    /// The registered device's credentials, or ``ParleyError/notRegistered``.
    static func credentials(_ db: Database) throws -> DeviceCredentials {
        guard let credentials = try fetch(db)?.credentials else { throw ParleyError.notRegistered }
        return credentials
    }
}
