/// One schema change: applied once, in its own transaction, recorded in `schema_migrations`.
struct PostgresMigration: Sendable {
    /// Applied in ascending order; never reused.
    let version: Int32
    /// What the migration does, for people reading `schema_migrations`.
    let name: String
    /// Run one by one (the extended query protocol takes one statement at a time).
    let statements: [String]
}

/// The PostgreSQL schema, mirroring ``SQLiteSchema`` version for version. Never edit a shipped migration; add the next one.
///
/// Ids are lowercase UUID text, 32-bit unsigned values (device, registration and key ids) are `BIGINT` so every
/// `UInt32` fits, timestamps are `BIGINT` milliseconds since 1970. The mailbox is range-partitioned by month on
/// `server_timestamp` (see ``MailboxPartition``), so expiry drops whole partitions instead of deleting rows.
enum PostgresSchema {
    /// Records which migrations ran; created before any migration.
    static let migrationsTable = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version INT PRIMARY KEY,
            name TEXT NOT NULL,
            applied BIGINT NOT NULL
        )
        """

    /// The migrations in the order they apply.
    static let migrations: [PostgresMigration] = [
        PostgresMigration(
            version: 1, name: "accounts, devices, prekeys",
            statements: [
                """
                CREATE TABLE accounts (
                    id TEXT PRIMARY KEY,
                    username TEXT NOT NULL,
                    identity_key BYTEA NOT NULL,
                    created BIGINT NOT NULL
                )
                """,
                // Usernames are unique whatever their case; `createAccount` names this index in `ON CONFLICT`.
                "CREATE UNIQUE INDEX accounts_username_key ON accounts (lower(username))",
                """
                CREATE TABLE devices (
                    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                    device_id BIGINT NOT NULL,
                    registration_id BIGINT NOT NULL,
                    name TEXT,
                    password_hash TEXT NOT NULL,
                    created BIGINT NOT NULL,
                    PRIMARY KEY (account_id, device_id)
                )
                """,
                """
                CREATE TABLE signed_prekeys (
                    account_id TEXT NOT NULL,
                    device_id BIGINT NOT NULL,
                    key_id BIGINT NOT NULL,
                    public_key BYTEA NOT NULL,
                    signature BYTEA NOT NULL,
                    PRIMARY KEY (account_id, device_id),
                    FOREIGN KEY (account_id, device_id) REFERENCES devices (account_id, device_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE one_time_prekeys (
                    account_id TEXT NOT NULL,
                    device_id BIGINT NOT NULL,
                    key_id BIGINT NOT NULL,
                    public_key BYTEA NOT NULL,
                    PRIMARY KEY (account_id, device_id, key_id),
                    FOREIGN KEY (account_id, device_id) REFERENCES devices (account_id, device_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE kem_prekeys (
                    account_id TEXT NOT NULL,
                    device_id BIGINT NOT NULL,
                    key_id BIGINT NOT NULL,
                    public_key BYTEA NOT NULL,
                    signature BYTEA NOT NULL,
                    last_resort BOOLEAN NOT NULL,
                    PRIMARY KEY (account_id, device_id, key_id),
                    FOREIGN KEY (account_id, device_id) REFERENCES devices (account_id, device_id) ON DELETE CASCADE
                )
                """,
            ]),
        PostgresMigration(
            version: 2, name: "mailboxes, partitioned by month",
            statements: [
                // `seq` orders envelopes accepted in the same millisecond, as SQLite's rowid does.
                "CREATE SEQUENCE mailbox_seq AS BIGINT",
                """
                CREATE TABLE mailbox (
                    guid TEXT NOT NULL,
                    seq BIGINT NOT NULL DEFAULT nextval('mailbox_seq'),
                    account_id TEXT NOT NULL,
                    device_id BIGINT NOT NULL,
                    source_account_id TEXT NOT NULL,
                    source_device_id BIGINT NOT NULL,
                    type SMALLINT NOT NULL,
                    content BYTEA NOT NULL,
                    timestamp BIGINT NOT NULL,
                    server_timestamp BIGINT NOT NULL,
                    PRIMARY KEY (guid, server_timestamp),
                    FOREIGN KEY (account_id, device_id) REFERENCES devices (account_id, device_id) ON DELETE CASCADE
                ) PARTITION BY RANGE (server_timestamp)
                """,
                "ALTER SEQUENCE mailbox_seq OWNED BY mailbox.seq",
                "CREATE INDEX mailbox_by_device ON mailbox (account_id, device_id, server_timestamp, seq)",
                // Catches rows no monthly partition covers, so an insert never fails; `preparePartitions` keeps it empty.
                "CREATE TABLE mailbox_default PARTITION OF mailbox DEFAULT",
            ]),
        PostgresMigration(
            version: 3, name: "device link codes",
            statements: [
                """
                CREATE TABLE link_codes (
                    code_hash BYTEA PRIMARY KEY,
                    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                    expires BIGINT NOT NULL
                )
                """
            ]),
        PostgresMigration(
            version: 4, name: "provisioning messages",
            statements: [
                """
                CREATE TABLE provisioning_messages (
                    address TEXT PRIMARY KEY,
                    body BYTEA NOT NULL,
                    expires BIGINT NOT NULL
                )
                """
            ]),
        PostgresMigration(
            version: 5, name: "content hash banks and import jobs",
            statements: [
                """
                CREATE TABLE dcd_hashes (
                    bank TEXT NOT NULL,
                    hash BYTEA NOT NULL,
                    added BIGINT NOT NULL,
                    expires BIGINT,
                    PRIMARY KEY (bank, hash)
                )
                """,
                "CREATE INDEX dcd_hashes_by_expiry ON dcd_hashes (expires) WHERE expires IS NOT NULL",
                """
                CREATE TABLE dcd_import_jobs (
                    id TEXT PRIMARY KEY,
                    bank TEXT NOT NULL,
                    state TEXT NOT NULL,
                    file_bytes BIGINT NOT NULL,
                    resume_offset BIGINT NOT NULL DEFAULT 0,
                    lines BIGINT NOT NULL DEFAULT 0,
                    imported BIGINT NOT NULL DEFAULT 0,
                    duplicates BIGINT NOT NULL DEFAULT 0,
                    invalid BIGINT NOT NULL DEFAULT 0,
                    errors TEXT NOT NULL DEFAULT '[]',
                    created BIGINT NOT NULL,
                    updated BIGINT NOT NULL
                )
                """,
            ]),
        PostgresMigration(
            version: 6, name: "PIN key backups",
            statements: [
                """
                CREATE TABLE key_backups (
                    account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
                    blob BYTEA NOT NULL,
                    kdf_parameters TEXT NOT NULL,
                    verifier_hash BYTEA NOT NULL,
                    failures BIGINT NOT NULL DEFAULT 0,
                    created BIGINT NOT NULL,
                    key_id BYTEA NOT NULL,
                    attempt_token_hash BYTEA
                )
                """
            ]),
        PostgresMigration(
            version: 7, name: "registration invites, disabled accounts",
            statements: [
                "ALTER TABLE accounts ADD COLUMN disabled BOOLEAN NOT NULL DEFAULT FALSE",
                """
                CREATE TABLE invites (
                    token_hash BYTEA PRIMARY KEY,
                    uses_left BIGINT NOT NULL,
                    expires BIGINT NOT NULL,
                    created BIGINT NOT NULL
                )
                """,
            ]),
        PostgresMigration(
            version: 8, name: "unidentified access, envelopes without a source",
            statements: [
                "ALTER TABLE accounts ADD COLUMN unidentified_access_key BYTEA",
                "ALTER TABLE accounts ADD COLUMN unrestricted_unidentified_access BOOLEAN NOT NULL DEFAULT FALSE",
                "ALTER TABLE mailbox ALTER COLUMN source_account_id DROP NOT NULL",
                "ALTER TABLE mailbox ALTER COLUMN source_device_id DROP NOT NULL",
            ]),
        PostgresMigration(
            version: 9, name: "push targets, open sockets",
            statements: [
                """
                CREATE TABLE push_targets (
                    account_id TEXT NOT NULL,
                    device_id BIGINT NOT NULL,
                    provider TEXT NOT NULL,
                    address TEXT NOT NULL,
                    p256dh TEXT,
                    auth TEXT,
                    topic TEXT,
                    sandbox BOOLEAN NOT NULL DEFAULT FALSE,
                    registered BIGINT NOT NULL,
                    pushed_at BIGINT,
                    PRIMARY KEY (account_id, device_id),
                    FOREIGN KEY (account_id, device_id) REFERENCES devices (account_id, device_id) ON DELETE CASCADE
                )
                """,
                """
                CREATE TABLE device_sockets (
                    account_id TEXT NOT NULL,
                    device_id BIGINT NOT NULL,
                    instance_id TEXT NOT NULL,
                    seen BIGINT NOT NULL,
                    PRIMARY KEY (account_id, device_id, instance_id)
                )
                """,
                "CREATE INDEX device_sockets_by_instance ON device_sockets (instance_id, seen)",
            ]),
        PostgresMigration(
            version: 10, name: "idempotency records of sends",
            statements: [
                """
                CREATE TABLE idempotency_records (
                    scope TEXT NOT NULL,
                    key TEXT NOT NULL,
                    fingerprint TEXT NOT NULL,
                    server_timestamp BIGINT NOT NULL,
                    PRIMARY KEY (scope, key)
                )
                """,
                "CREATE INDEX idempotency_records_by_age ON idempotency_records (server_timestamp)",
            ]),
        PostgresMigration(
            version: 11, name: "server-stored groups, profile key commitments",
            statements: [
                """
                CREATE TABLE stored_groups (
                    id BYTEA PRIMARY KEY,
                    version BIGINT NOT NULL,
                    state BYTEA NOT NULL,
                    updated BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE group_changes (
                    group_id BYTEA NOT NULL REFERENCES stored_groups (id) ON DELETE CASCADE,
                    version BIGINT NOT NULL,
                    change BYTEA NOT NULL,
                    state BYTEA NOT NULL,
                    PRIMARY KEY (group_id, version)
                )
                """,
                """
                CREATE TABLE profile_key_commitments (
                    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                    version TEXT NOT NULL,
                    commitment BYTEA NOT NULL,
                    created BIGINT NOT NULL,
                    PRIMARY KEY (account_id, version)
                )
                """,
            ]),
        PostgresMigration(
            version: 12, name: "username hashes and links",
            statements: [
                """
                CREATE TABLE username_hashes (
                    hash BYTEA PRIMARY KEY,
                    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                    confirmed BOOLEAN NOT NULL,
                    reserved_until BIGINT NOT NULL
                )
                """,
                "CREATE INDEX username_hashes_by_account ON username_hashes (account_id)",
                """
                CREATE TABLE username_links (
                    handle TEXT PRIMARY KEY,
                    account_id TEXT NOT NULL UNIQUE REFERENCES accounts (id) ON DELETE CASCADE,
                    encrypted_value BYTEA NOT NULL
                )
                """,
            ]),
        // An account's plain name becomes optional: accounts registered without one go by a username the server keeps
        // only as a hash, and an account's name is deleted once it has confirmed one (and its PIN backup no longer
        // needs the name).
        PostgresMigration(
            version: 13, name: "accounts without plain names",
            statements: ["ALTER TABLE accounts ALTER COLUMN username DROP NOT NULL"]),
    ]
}
