import Foundation
import GRDB
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
    static func fetch(_ db: Database) throws -> LocalAccount? {
        try Row.fetchOne(db, sql: "SELECT * FROM local_account WHERE id = 1").map { row in
            let accountId: String? = row["account_id"]
            let deviceId: Int64? = row["device_id"]
            return LocalAccount(
                serverURL: row["server_url"], username: row["username"],
                credentials: accountId.flatMap { id in deviceId.map { DeviceCredentials(accountId: id, deviceId: UInt32($0), password: row["password"]) } },
                registrationId: UInt32(truncatingIfNeeded: row["registration_id"] as Int64))
        }
    }

    /// The server this database's account talks to, if it has one yet.
    static func serverURL(_ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT server_url FROM local_account WHERE id = 1")
    }

    /// The registered device's credentials, or ``ParleyError/notRegistered``.
    static func credentials(_ db: Database) throws -> DeviceCredentials {
        guard let credentials = try fetch(db)?.credentials else { throw ParleyError.notRegistered }
        return credentials
    }
}
