internal import GRDB

/// The `settings` table: text values under text keys (client settings, the sealed-sender trust root and sender
/// certificate, a pending backup restore). Its one owner: every read and write of it goes through here.
enum SettingsTable {
    /// The sender certificate this device keeps for sealed sends (base64), written by the pipelines and dropped when the
    /// trust root is pinned anew.
    static let senderCertificate = "sender_certificate"
    /// When the primary device last approved a new device (milliseconds): sends ask the server for the account's
    /// devices until the new one is known.
    static let linkApprovedAt = "link_approved_at"
    /// The sealed-sender trust root (base64 of the 33-byte public key).
    static let trustRoot = "sealed_sender_trust_root"
    /// Set when the trust root was pinned by hand (the server's word no longer replaces it).
    static let trustRootPinned = "sealed_sender_trust_root_pinned"
    /// The server's zkgroup public params (base64 of `ServerPublicParams`), kept the first time they are learned: group
    /// credentials must check out against the same keys ever after.
    static let zkGroupPublicParams = "zkgroup_public_params"
    /// The version (hex) of the profile key whose commitment this account last published to the server.
    static let profileKeyCommitmentVersion = "profile_key_commitment_version"
    /// The group auth credentials received for the coming days: JSON of redemption day (seconds) to the base64 of an
    /// `AuthCredentialWithPni`.
    static let groupAuthCredentials = "group_auth_credentials"

    /// This account's username (`nickname.NN`), as it was confirmed: the server keeps only its hash.
    static let username = "username"
    /// This account's username link: base64url of the link's 32 bytes of entropy and its 16-byte handle.
    static let usernameLink = "username_link"
    /// Set when the account registered without a plain name: it goes by its username alone.
    static let registeredWithoutName = "registered_without_name"

    /// The value under `key`, if any.
    static func value(_ key: String, _ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [key])
    }

    /// Every key and its value.
    static func all(_ db: Database) throws -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT key, value FROM settings").map { ($0[0] as String, $0[1] as String) })
    }

    /// Sets `key` to `value`.
    static func set(_ key: String, to value: String, _ db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", arguments: [key, value])
    }

    /// Removes `key`.
    static func remove(_ key: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM settings WHERE key = ?", arguments: [key])
    }
}
